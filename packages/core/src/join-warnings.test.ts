import { joinWarnings } from "@task-context/core/internal";
import { describe, expect, it } from "vitest";

describe("joinWarnings", () => {
  it("joins the warnings given, in order, by a space, leaving out undefined and empty ones", () => {
    expect(joinWarnings(["Truncated.", undefined, "", "Forged header."])).toBe(
      "Truncated. Forged header.",
    );
  });

  it("is undefined when there is no warning", () => {
    expect(joinWarnings([undefined, ""])).toBeUndefined();
    expect(joinWarnings([])).toBeUndefined();
  });
});
