import { approximateTokenizer } from "@task-context/core";
import { o200kTokenizer } from "@task-context/core/o200k";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractiveSummarizer } from "./summarize.ts";

const info = { itemType: "story-excerpt", tokenizer: approximateTokenizer };
const story = `# Export

Users export notes as Markdown. They choose a folder. The app writes one file per note.

## Edge cases

Empty notes are skipped. Titles become file names.
- First item. More.
- Second item.
`;
const code = `import { a } from "b";
import { c } from "d";

// Adds two numbers.
export function add(x: number, y: number): number {
  return x + y;
}

export function sub(x: number, y: number): number {
  return x - y;
}
`;

describe("extractiveSummarizer", () => {
  it("keeps headings first, marking what it leaves out", () => {
    expect(extractiveSummarizer(story, 12, info)).toBe("# Export\n…\n\n## Edge cases\n…");
  });

  it("adds the first sentence of each paragraph next, in document order", () => {
    expect(extractiveSummarizer(story, 25, info)).toBe(
      "# Export\n\nUsers export notes as Markdown. …\n\n## Edge cases\n\nEmpty notes are skipped. …",
    );
  });

  it("adds later sentences as the budget grows, never a sentence without the one before it", () => {
    expect(extractiveSummarizer(story, 40, info)).toBe(
      "# Export\n\nUsers export notes as Markdown. They choose a folder. …\n\n## Edge cases\n\nEmpty notes are skipped. …\n- First item. More.\n- Second item.",
    );
  });

  it("keeps the first line of each block of code", () => {
    expect(extractiveSummarizer(code, 30, { ...info, tokenizer: o200kTokenizer })).toBe(
      'import { a } from "b";\n…\n\n// Adds two numbers.\n…\n\nexport function sub(x: number, y: number): number {\n…',
    );
  });

  it("truncates the text when not even the first piece fits", () => {
    expect(extractiveSummarizer(story, 3, info)).toBe("# Export\n\n");
    expect(extractiveSummarizer("one two three four five six", 3, info)).toBe("one two three ");
  });

  it("returns nothing for a budget of zero", () => {
    expect(extractiveSummarizer(story, 0, info)).toBe("");
  });

  it("is deterministic", () => {
    expect(extractiveSummarizer(code, 20, info)).toBe(extractiveSummarizer(code, 20, info));
  });

  it("stays within the budget for any text (property)", () => {
    const line = fc.oneof(
      fc.constantFrom("# Title", "## Part", "- item. next.", "", "   "),
      fc.string({ maxLength: 60 }),
      fc.lorem({ maxCount: 12, mode: "sentences" }),
    );
    const text = fc.array(line, { maxLength: 30 }).map((lines) => lines.join("\n"));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 80 }), (value, budget) => {
        for (const tokenizer of [approximateTokenizer, o200kTokenizer]) {
          const summary = extractiveSummarizer(value, budget, { ...info, tokenizer });
          expect(tokenizer.count(summary as string)).toBeLessThanOrEqual(budget);
        }
      }),
      { numRuns: 300 },
    );
  });
});
