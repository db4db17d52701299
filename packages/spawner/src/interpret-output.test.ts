import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { interpretOutput, MAX_OUTPUT_TEXT } from "./interpret-output.ts";

const valid = { status: "success", summary: "ok", "files-modified": ["a.ts"] };

describe("interpretOutput", () => {
  it("accepts spec 002's output as an object or as JSON text", () => {
    expect(interpretOutput(valid)).toEqual({ valid: true, output: valid });
    expect(interpretOutput(`\n${JSON.stringify(valid)}\n`)).toEqual({ valid: true, output: valid });
  });

  it("accepts the result's camelCase names for the spec's wire names", () => {
    expect(
      interpretOutput({
        status: "blocked",
        summary: "s",
        filesModified: [],
        recommendedAction: "ask",
      }),
    ).toEqual({
      valid: true,
      output: {
        status: "blocked",
        summary: "s",
        "files-modified": [],
        "recommended-action": "ask",
      },
    });
    const both = interpretOutput({ ...valid, filesModified: ["b.ts"] });
    expect(both.valid).toBe(false);
  });

  it("lists every issue with its JSON Pointer", () => {
    const result = interpretOutput({ status: "ok", summary: 3, "files-modified": ["a", 4] });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.issues.map((issue) => issue.path)).toEqual([
      "/status",
      "/summary",
      "/files-modified/1",
    ]);
  });

  it("refuses empty, oversized and non-JSON text and values that are not objects", () => {
    for (const output of ["", "  ", "{", "x".repeat(MAX_OUTPUT_TEXT + 1), null, 42, [valid]]) {
      const result = interpretOutput(output);
      expect(result.valid).toBe(false);
      if (!result.valid) expect(result.issues.length).toBeGreaterThan(0);
    }
  });

  it("never throws, whatever a runner returns", () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.json()), (output) => {
        const result = interpretOutput(output);
        expect(typeof result.valid).toBe("boolean");
      }),
    );
  });
});
