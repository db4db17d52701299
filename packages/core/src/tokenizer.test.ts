import { approximateTokenizer, loadO200kTokenizer } from "@task-context/core";
import { o200kTokenizer } from "@task-context/core/o200k";
import fc from "fast-check";
import { countTokens, decode, encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";

const ordinary = { disallowedSpecial: new Set<string>() };
const exact = (text: string) => countTokens(text, ordinary);
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const isGraphemeBoundary = (text: string, index: number) =>
  index === text.length || [...segmenter.segment(text)].some((segment) => segment.index === index);

const samples: Record<string, string> = {
  english:
    "We are building Lumen, a note-taking app for researchers. The logo is a lowercase wordmark in deep teal; never call it a hospital or a clinic. Screenshots show the editor, the sidebar and the citation panel. ".repeat(
      20,
    ),
  code: 'export async function loadTaskContext(workspace: Workspace, options: Options = {}) {\n  const read = await workspace.readFile("CONTEXT.md", { maxBytes: 40_004 });\n  if (read.size === 0) throw new Error("empty");\n  return decode(read.bytes);\n}\n'.repeat(
    20,
  ),
  chinese:
    "我们正在构建一个名为流明的笔记应用程序，面向研究人员。标志是深青色的小写字标，绝不要把它称为医院或诊所。".repeat(
      20,
    ),
  japanese:
    "私たちは研究者向けのノートアプリ「ルーメン」を作っています。ロゴは深いティール色の小文字のワードマークです。".repeat(
      20,
    ),
  russian:
    "Мы создаём Люмен, приложение для заметок для исследователей. Логотип — строчная надпись глубокого бирюзового цвета. ".repeat(
      20,
    ),
  emoji: "Launch day 🚀🎉 with the team 👩🏽‍💻👨‍👩‍👧‍👦 and flags 🇫🇷🇯🇵! ".repeat(20),
};

describe("o200kTokenizer", () => {
  it("counts exactly as gpt-tokenizer's o200k_base", () => {
    for (const text of Object.values(samples)) expect(o200kTokenizer.count(text)).toBe(exact(text));
    expect(o200kTokenizer.count("<|endoftext|>")).toBe(exact("<|endoftext|>"));
  });

  it("truncates every sample to the budget, as counted by gpt-tokenizer, at a grapheme boundary", () => {
    for (const [name, text] of Object.entries(samples)) {
      for (const budget of [1, 7, 50, 200]) {
        const kept = o200kTokenizer.truncate(text, budget);
        const tokens = exact(kept);
        expect(tokens, `${name} @ ${budget}`).toBeLessThanOrEqual(budget);
        expect(tokens, `${name} @ ${budget} uses the budget`).toBeGreaterThanOrEqual(budget - 4);
        expect(text.startsWith(kept)).toBe(true);
        expect(isGraphemeBoundary(text, kept.length)).toBe(true);
      }
    }
  });

  it("is not misled by bytes another caller left in gpt-tokenizer's shared streaming decoder", () => {
    const text = "ꋇᑵꃬᙱꭱ⮦𝝵⥖ and more text after it";
    const expected = o200kTokenizer.truncate(text, 23);
    const partial = encode("⥖").slice(0, 2);
    decode(partial); // leaves an incomplete UTF-8 sequence behind
    expect(o200kTokenizer.truncate(text, 23)).toBe(expected);
    expect(exact(expected)).toBeLessThanOrEqual(23);
  });

  it("loads lazily from the main entry point", async () => {
    expect(await loadO200kTokenizer()).toBe(o200kTokenizer);
  });

  it("returns the text unchanged when it fits, and nothing for a zero budget", () => {
    expect(o200kTokenizer.truncate("short text", 100)).toBe("short text");
    expect(o200kTokenizer.truncate("short text", 0)).toBe("");
  });

  it("never exceeds the budget or splits a grapheme on any text (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ unit: "grapheme" }),
            fc.constantFrom("👨‍👩‍👧‍👦", "🇯🇵", "e\u0301", "字字字", " ", "\n"),
          ),
          {
            maxLength: 30,
          },
        ),
        fc.integer({ min: 0, max: 40 }),
        (parts, budget) => {
          const text = parts.join("");
          const kept = o200kTokenizer.truncate(text, budget);
          expect(exact(kept)).toBeLessThanOrEqual(budget);
          expect(text.startsWith(kept)).toBe(true);
          expect(isGraphemeBoundary(text, kept.length)).toBe(true);
          if (exact(text) <= budget) expect(kept).toBe(text);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("rejects a negative or fractional budget", () => {
    expect(() => o200kTokenizer.truncate("x", -1)).toThrow(/maxTokens/);
    expect(() => o200kTokenizer.truncate("x", 1.5)).toThrow(/maxTokens/);
  });
});

describe("approximateTokenizer", () => {
  it("stays within 25 % of o200k on prose, code, CJK, Cyrillic and emoji", () => {
    for (const [name, text] of Object.entries(samples)) {
      const ratio = approximateTokenizer.count(text) / exact(text);
      expect(ratio, name).toBeGreaterThan(0.75);
      expect(ratio, name).toBeLessThan(1.25);
    }
  });

  it("truncates within its own count at a grapheme boundary (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 200 }),
        fc.integer({ min: 0, max: 60 }),
        (text, budget) => {
          const kept = approximateTokenizer.truncate(text, budget);
          expect(approximateTokenizer.count(kept)).toBeLessThanOrEqual(budget);
          expect(text.startsWith(kept)).toBe(true);
          expect(isGraphemeBoundary(text, kept.length)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("counts nothing for empty text", () => {
    expect(approximateTokenizer.count("")).toBe(0);
    expect(approximateTokenizer.truncate("", 5)).toBe("");
  });
});
