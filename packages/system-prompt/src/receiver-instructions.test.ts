import { contextReceiverInstructions } from "@task-context/system-prompt";
import { describe, expect, it } from "vitest";

describe("contextReceiverInstructions", () => {
  it("states spec 004's receiving rules", () => {
    expect(contextReceiverInstructions()).toMatchSnapshot();
  });

  it("can leave out the inherited CONTEXT.md note", () => {
    const text = contextReceiverInstructions({ inheritsContextMd: false });
    expect(text).not.toContain("CONTEXT.md");
    expect(text.split("\n")).toHaveLength(7);
  });

  it("covers each fallback rule of the spec", () => {
    const text = contextReceiverInstructions();
    expect(text).toContain("or it has no `version`");
    expect(text).toContain("read `<cwd>/docs/project.json` and `<cwd>/docs/CONVENTIONS.md`");
    expect(text).toContain("read the full conventions from `conventions.fullPath`");
  });
});
