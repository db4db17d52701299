import {
  ArgumentError,
  findPosingText,
  POSING_KINDS,
  type PosingFinding,
} from "@task-context/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BENIGN_SAMPLES,
  POSING_PIECES,
  POSING_SAMPLES,
  REPORTED_BY_DESIGN,
  smuggle,
} from "../../bench/posing-corpus.ts";
import {
  FLAG_BASE,
  FLAG_TAG_RUN,
  INVISIBLE_RUNS,
  POSING_LABELS,
  POSING_TAGS,
} from "./posing-forms.ts";

const kindsOf = (text: string) => findPosingText(text).map((finding) => finding.kind);
const spansOf = (text: string) =>
  findPosingText(text).map((finding) => [finding.kind, text.slice(finding.start, finding.end)]);

describe("findPosingText", () => {
  it("covers every kind in the corpus", () => {
    const found = new Set(POSING_SAMPLES.flatMap((sample) => sample.kinds));
    expect([...found].sort()).toStrictEqual([...POSING_KINDS].sort());
  });

  it.each(POSING_SAMPLES.map((sample) => [sample.name, sample] as const))(
    "finds %s",
    (_name, sample) => {
      expect(kindsOf(sample.text)).toStrictEqual(sample.kinds);
    },
  );

  it.each(BENIGN_SAMPLES.map((sample) => [sample.name, sample.text] as const))(
    "reports nothing in %s",
    (_name, text) => {
      expect(findPosingText(text)).toStrictEqual([]);
    },
  );

  it.each(REPORTED_BY_DESIGN.map((sample) => [sample.name, sample] as const))(
    "reports %s, by design",
    (_name, sample) => {
      expect(kindsOf(sample.text)).toStrictEqual(sample.kinds);
    },
  );

  it("reports kind, label, line, column and offsets of every finding, in text order", () => {
    const text = `Done.\n  [Request]\n<context version="1">\r\nok ${smuggle("hi")}\u202E\u202Ex\u200B\u200B`;
    expect(findPosingText(text).map((finding) => Object.values(finding))).toStrictEqual([
      ["task-context-header", "a forged task-context header line", 2, 3, 8, 17],
      ["context-tag", "a Context Protocol context tag", 3, 1, 18, 39],
      ["unicode-tag-characters", "a run of invisible Unicode tag characters", 4, 4, 44, 48],
      [
        "bidi-override",
        "a run of bidirectional override, embedding or isolate controls",
        4,
        8,
        48,
        50,
      ],
      ["zero-width-run", "a run of zero-width characters", 4, 11, 51, 53],
    ]);
  });

  it("gives every kind its label", () => {
    expect(Object.keys(POSING_LABELS).sort()).toStrictEqual([...POSING_KINDS].sort());
  });

  describe("headers", () => {
    it("finds a line that is exactly a header, in any case, with whitespace around it", () => {
      expect(spansOf("[Task Context]")).toStrictEqual([["task-context-header", "[Task Context]"]]);
      expect(spansOf("a\n \t[ request ]\u00A0 \nb")).toStrictEqual([
        ["task-context-header", "[ request ]"],
      ]);
      expect(
        kindsOf("[TASK  CONTEXT]\n[task-context]\n[Task_Context]\n[taskcontext]"),
      ).toHaveLength(4);
      expect(kindsOf("x\r\n[Request]\r\ny")).toStrictEqual(["task-context-header"]);
      expect(kindsOf("x\u2028[Request]\u2029y")).toStrictEqual(["task-context-header"]);
    });

    it("does not report a header inside a sentence, followed by text, escaped or quoted", () => {
      for (const text of [
        "Put the brief under [Task Context] and the ask under [Request].",
        "[Request] Make the logo teal.",
        "[Request]:",
        "- [Request]",
        "> [Request]",
        "**[Request]**",
        "\\[Request]",
        "[Requests]",
        "[Task Contexts]",
        "[Task\nContext]",
      ]) {
        expect(findPosingText(text), text).toStrictEqual([]);
      }
    });
  });

  describe("tags", () => {
    it("finds opening, closing and self-closing tags, with their attributes", () => {
      expect(
        spansOf(
          '<context>a</context> <context version="1" >b<context/>\n<subagent-context\n  type="x">',
        ),
      ).toStrictEqual([
        ["context-tag", "<context>"],
        ["context-tag", "</context>"],
        ["context-tag", '<context version="1" >'],
        ["context-tag", "<context/>"],
        ["subagent-context-tag", '<subagent-context\n  type="x">'],
      ]);
    });

    it("finds every system, instructions and chat-template tag of the table", () => {
      const text = [
        "<system-reminder>",
        "</system-reminder>",
        "<system>",
        "</SYSTEM>",
        "<system_prompt>",
        "<system-prompt>",
        "<instructions>",
        "</instructions>",
        "<|im_start|>system",
        "<|im_start|>",
        "<|im_end|>",
        "<|eot_id|>",
        "<<SYS>>",
        "<</SYS>>",
        "[INST]",
        "[/INST]",
      ];
      expect(spansOf(text.join(" "))).toStrictEqual(text.map((tag) => ["system-tag", tag]));
    });

    it("does not report names that only start like a tag, capitalised names or unclosed tags", () => {
      for (const text of [
        "<context-menu>",
        "<contextual>",
        "<subagent-contexts>",
        "<systems>",
        "<Context>",
        "<System />",
        "<context",
        "< context>",
        `<context ${"a".repeat(257)}>`,
        "<context a='<'>",
        "<|IM_START|>",
        "<|>",
        "<<SYS>",
        "[inst]",
      ]) {
        expect(findPosingText(text), text).toStrictEqual([]);
      }
      expect(kindsOf(`<context ${"a".repeat(255)}>`)).toStrictEqual(["context-tag"]);
    });

    it("finds tags inside code fences and inline code", () => {
      expect(kindsOf("```\n<system>\n```\nUse `</context>`.")).toStrictEqual([
        "system-tag",
        "context-tag",
      ]);
    });
  });

  describe("invisible characters", () => {
    it("reports one finding per run", () => {
      expect(spansOf(`a${smuggle("run")}b${smuggle("x")}`)).toStrictEqual([
        ["unicode-tag-characters", smuggle("run")],
        ["unicode-tag-characters", smuggle("x")],
      ]);
      expect(spansOf("\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069")).toHaveLength(1);
      expect(spansOf("\u200B\u200C\u200D\u2060\uFEFF\u180E")).toHaveLength(1);
    });

    it("reports a single bidi control, but not a single zero-width character or a mark", () => {
      expect(kindsOf("a\u202Eb")).toStrictEqual(["bidi-override"]);
      for (const character of ["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u180E"]) {
        expect(findPosingText(`a${character}b`)).toStrictEqual([]);
      }
      expect(findPosingText("\u200E\u200F\u061C\u200F\u200F")).toStrictEqual([]);
    });

    it("takes a byte order mark at offset 0 for the encoding's, and elsewhere for a character", () => {
      expect(findPosingText("\uFEFF\u200Bx")).toStrictEqual([]);
      expect(spansOf("\uFEFF\uFEFF\u200Bx")).toStrictEqual([["zero-width-run", "\uFEFF\u200B"]]);
      expect(kindsOf("x\uFEFF\u200B")).toStrictEqual(["zero-width-run"]);
    });

    it("leaves subdivision flags alone, and reports tag characters that are not one", () => {
      const scotland = `${FLAG_BASE}${smuggle("gbsct")}\u{E007F}`;
      expect(findPosingText(scotland)).toStrictEqual([]);
      expect(kindsOf(`x${smuggle("gbsct")}\u{E007F}`)).toStrictEqual(["unicode-tag-characters"]);
      expect(kindsOf(`${FLAG_BASE}${smuggle("GBSCT")}\u{E007F}`)).toStrictEqual([
        "unicode-tag-characters",
      ]);
      expect(kindsOf(`${FLAG_BASE}${smuggle("gbsctxx")}\u{E007F}`)).toStrictEqual([
        "unicode-tag-characters",
      ]);
    });

    it("does not report lone surrogates or other characters of the same plane", () => {
      expect(findPosingText("\uDB40 \uDC41 \uDB40\uDD00 \u{E0100}\u{E0101}")).toStrictEqual([]);
    });
  });

  it("finds nothing in the empty string and refuses what is not a string", () => {
    expect(findPosingText("")).toStrictEqual([]);
    expect(() => findPosingText(42 as unknown as string)).toThrow(ArgumentError);
    expect(() => findPosingText(undefined as unknown as string)).toThrow(
      "Invalid text: expected a string, got undefined.",
    );
  });

  // Timings are measured in bench/posing-text.bench.ts; here, that hostile input is handled at
  // all: a quadratic scan of 400 000 characters would take minutes, past the test's timeout.
  it.each([
    ["angle brackets", "<".repeat(400_000)],
    ["tag names without a closing bracket", "<context ".repeat(45_000)],
    ["long attributes without a closing bracket", `<context ${"a".repeat(250)}`.repeat(1_500)],
    ["chat-template token starts", "<|im_start".repeat(40_000)],
    ["square brackets and spaces", "[ ".repeat(200_000)],
    ["indented header starts", `\n${" ".repeat(50)}[ task `.repeat(6_000)],
    ["headers followed by text", "[Request] x\n".repeat(33_000)],
    ["zero-width characters between letters", "\u200Ba".repeat(200_000)],
    ["lone high surrogates", "\uDB40a".repeat(200_000)],
    ["one long bidi run", "\u202E".repeat(400_000)],
    ["one long tag-character run", smuggle("a").repeat(200_000)],
    ["a finding every 9 characters", "<context>".repeat(45_000)],
  ])("handles hostile input: %s", (_name, text) => {
    expect(Array.isArray(findPosingText(text))).toBe(true);
  });
});

/**
 * What findPosingText finds by definition: at every offset in turn, the first form of the table
 * that matches there, the scan resuming after it. findPosingText only tries the forms where a stop
 * character is; it must find exactly this.
 */
function everyOffsetInTurn(text: string): PosingFinding[] {
  const forms = [...POSING_TAGS, ...INVISIBLE_RUNS].map(({ kind, pattern }) => ({
    kind,
    pattern: new RegExp(pattern, "my"),
  }));
  const findings: PosingFinding[] = [];
  let offset = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (offset < text.length) {
    const form = forms.find(({ pattern }) => {
      pattern.lastIndex = offset;
      return pattern.test(text);
    });
    if (form === undefined) {
      offset++;
      continue;
    }
    const end = form.pattern.lastIndex;
    const isFlag =
      form.kind === "unicode-tag-characters" &&
      text.slice(offset - 2, offset) === FLAG_BASE &&
      FLAG_TAG_RUN.test(text.slice(offset, end));
    if (!isFlag) {
      const before = text.slice(0, offset);
      findings.push({
        kind: form.kind,
        label: POSING_LABELS[form.kind],
        line: before.split("\n").length,
        column: offset - (before.lastIndexOf("\n") + 1) + 1,
        start: offset,
        end,
      });
    }
    offset = end;
  }
  return findings;
}

const posingText = fc
  .array(fc.oneof(fc.constantFrom(...POSING_PIECES), fc.string({ maxLength: 4, unit: "binary" })), {
    maxLength: 16,
  })
  .map((parts) => parts.join(""));

describe("the posing-text scan", () => {
  it("finds exactly what trying every form at every offset in turn finds", () => {
    fc.assert(
      fc.property(posingText, (text) => {
        expect(findPosingText(text)).toStrictEqual(everyOffsetInTurn(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it("finds exactly that in the corpus and in a long text that holds every sample", () => {
    const texts = [...POSING_SAMPLES, ...BENIGN_SAMPLES, ...REPORTED_BY_DESIGN].map(
      ({ text }) => text,
    );
    for (const text of [...texts, texts.join("\n— ")]) {
      expect(findPosingText(text)).toStrictEqual(everyOffsetInTurn(text));
    }
  });

  it("reports findings in text order, none overlapping, none empty", () => {
    fc.assert(
      fc.property(posingText, (text) => {
        let covered = 0;
        for (const { start, end } of findPosingText(text)) {
          expect(start).toBeGreaterThanOrEqual(covered);
          expect(end).toBeGreaterThan(start);
          covered = end;
        }
      }),
      { numRuns: 1_000 },
    );
  });
});
