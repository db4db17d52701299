import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitContextSectionsExample } from "../../examples/fit-context-sections.ts";
import { approximateTokenizer } from "../approximate-tokenizer.ts";
import { fitContextSections } from "./fit-context-sections.ts";

const OTHER_DETAILS =
  "## Other details\nRun pnpm test before every commit. The staging server is at staging.example.\n\n";

const CONTEXT = [
  "# Task context",
  "",
  "## What we are building",
  "Lumen, a note-taking app for researchers.",
  "",
  "## Visual and brand guidelines",
  "Teal on white. LUMEN in capitals is the wordmark.",
  "",
  OTHER_DETAILS.trimEnd(),
  "",
  "## Key terminology",
  "- **Vault**: a folder of notes.",
  "### Retired terms",
  "- **Notebook**: now a vault.",
].join("\n");

describe("fitContextSections", () => {
  it("keeps the whole text when it fits", async () => {
    const fitted = await fitContextSections(`\n${CONTEXT}\n`, {
      unit: "characters",
      amount: CONTEXT.length,
    });
    expect(fitted).toStrictEqual({
      content: CONTEXT,
      kept: [
        "Task context",
        "What we are building",
        "Visual and brand guidelines",
        "Other details",
        "Key terminology",
        "Retired terms",
      ],
      dropped: [],
      cut: false,
    });
  });

  it("keeps the goal, then the key terms with their sub-sections, then others in order while they fit", async () => {
    const fitted = await fitContextSections(CONTEXT, { unit: "characters", amount: 262 });
    expect(fitted).toStrictEqual({
      content: CONTEXT.replace(OTHER_DETAILS, ""),
      kept: [
        "Task context",
        "What we are building",
        "Visual and brand guidelines",
        "Key terminology",
        "Retired terms",
      ],
      dropped: ["Other details"],
      cut: false,
    });
    expect(fitted.content.length).toBeLessThanOrEqual(262);
  });

  it("leaves out a later section that does not fit and keeps one after it that does", async () => {
    const fitted = await fitContextSections(CONTEXT, { unit: "characters", amount: 200 });
    expect(fitted.kept).toStrictEqual([
      "Task context",
      "What we are building",
      "Key terminology",
      "Retired terms",
    ]);
    expect(fitted.dropped).toStrictEqual(["Visual and brand guidelines", "Other details"]);
  });

  it("cuts the goal itself when nothing more fits, and says so", async () => {
    const fitted = await fitContextSections(CONTEXT, { unit: "characters", amount: 40 });
    expect(fitted).toStrictEqual({
      content: "# Task context\n\n## What we are building",
      kept: ["Task context", "What we are building"],
      dropped: ["Visual and brand guidelines", "Other details", "Key terminology", "Retired terms"],
      cut: true,
    });
  });

  it("counts tokens with the budget's tokenizer", async () => {
    const budget = { unit: "tokens", amount: 40, tokenizer: approximateTokenizer } as const;
    const fitted = await fitContextSections(CONTEXT, budget);
    expect(approximateTokenizer.count(fitted.content)).toBeLessThanOrEqual(40);
    expect(fitted.kept.slice(0, 2)).toStrictEqual(["Task context", "What we are building"]);
    expect(fitted.kept).toContain("Key terminology");
    expect(fitted.dropped).toContain("Other details");
  });

  it("treats the text before the first heading as the top", async () => {
    const fitted = await fitContextSections(
      "Lumen, a notes app.\n\n## Other details\nRun pnpm test.\n\n## Glossary\nVault: notes.",
      { unit: "characters", amount: 46 },
    );
    expect(fitted).toStrictEqual({
      content: "Lumen, a notes app.\n\n## Glossary\nVault: notes.",
      kept: ["Glossary"],
      dropped: ["Other details"],
      cut: false,
    });
  });

  it("returns nothing for a budget of 0", async () => {
    const fitted = await fitContextSections(CONTEXT, { unit: "characters", amount: 0 });
    expect(fitted.content).toBe("");
    expect(fitted.kept).toStrictEqual([]);
    expect(fitted.cut).toBe(true);
  });

  it("refuses a budget it cannot use, naming the field", async () => {
    await expect(
      fitContextSections(CONTEXT, { unit: "words", amount: 3 } as never),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      argument: "budget.unit",
      message: 'Invalid budget.unit: expected "characters" or "tokens", got "words".',
    });
    await expect(
      fitContextSections(CONTEXT, { unit: "tokens", amount: 3 } as never),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", argument: "budget.tokenizer" });
  });

  it("never exceeds the budget, keeps or drops every heading once, and keeps the text's lines in order", async () => {
    const line = fc.oneof(
      fc.constantFrom(
        "# Task context",
        "## What we are building",
        "## Key terminology",
        "### Sub",
        "## Other details",
        "```",
        "",
        "text of a section",
      ),
      fc.string({ maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 25 }),
        fc.integer({ min: 0, max: 200 }),
        fc.boolean(),
        async (lines, amount, tokens) => {
          const text = lines.join("\n");
          const budget = tokens
            ? ({ unit: "tokens", amount, tokenizer: approximateTokenizer } as const)
            : ({ unit: "characters", amount } as const);
          const fitted = await fitContextSections(text, budget);
          const size = tokens ? approximateTokenizer.count(fitted.content) : fitted.content.length;
          expect(size).toBeLessThanOrEqual(amount);
          const all = await fitContextSections(text, { unit: "characters", amount: text.length });
          expect(all.content).toBe(text.trim());
          expect([...fitted.kept, ...fitted.dropped].sort()).toEqual([...all.kept].sort());
          // What is kept is the text's own lines, in order.
          expect(text.includes(fitted.content) || isSubsequence(fitted.content, text)).toBe(true);
        },
      ),
    );
  });

  it("does what its example says", async () => {
    expect(await fitContextSectionsExample()).toStrictEqual({
      content:
        "# Task context\n\n## What we are building\nLumen, a notes app.\n\n## Key terminology\n- **Vault**: notes.",
      kept: ["Task context", "What we are building", "Key terminology"],
      dropped: ["Other details"],
      cut: false,
    });
  });
});

/** Whether the lines of `part` appear in `whole` in the same order. */
function isSubsequence(part: string, whole: string): boolean {
  const lines = whole.split("\n");
  let at = 0;
  for (const line of part.split("\n")) {
    while (at < lines.length && !(lines[at] as string).includes(line)) at++;
    if (at === lines.length) return false;
    at++;
  }
  return true;
}
