import { findPosingText } from "@task-context/core";
import fc from "fast-check";
import { SaxesParser } from "saxes";
import { describe, expect, it } from "vitest";
import type { ContextItem, SubagentContext } from "../schemas/subagent-context.ts";
import { parseSubagentContext } from "./parse-subagent-context.ts";
import { renderSubagentContext, sanitizeSubagentContext } from "./render-subagent-context.ts";
import { escapeXmlAttribute, escapeXmlText, sanitizeXmlText } from "./xml-text.ts";

// Any UTF-16 code unit (so lone surrogates, controls, U+FFFE/U+FFFF), any code point, and the
// fragments that break naive XML writers.
const unit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.constantFrom(
    "]]>",
    "&",
    "<",
    ">",
    '"',
    "'",
    "\r",
    "\r\n",
    "\t",
    "\n",
    "\u0000",
    "\uD800",
    "\uDFFF",
    "\uFFFE",
    "\uFFFF",
    "&amp;",
    "&#13;",
    "<![CDATA[",
    "-->",
    "<?xml ",
    // Posing text, which earlier work delivers neutralised.
    "<system-reminder>",
    "</context>",
    "<subagent-context>",
    "\n[Request]\n",
    "<|im_start|>",
    "\u202E",
    "\u200B\u200B",
    "\uDB40\uDC41",
  ),
);
const text = fc.string({ unit, maxLength: 40 });
/** Text that stays non-empty after sanitizing (names and types must be non-empty). */
const name = text.map((value) => `n${value}`);

const item: fc.Arbitrary<ContextItem> = fc.record(
  {
    type: fc.oneof(name, fc.constant("prior-output")),
    content: text,
    path: text,
    source: text,
    untrusted: fc.constant(true as const),
  },
  { requiredKeys: ["type", "content"] },
);
const field = fc.record({ name, description: text });
const document: fc.Arbitrary<SubagentContext> = fc.record({
  version: fc.constant("1.0" as const),
  task: fc.record(
    {
      id: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/),
      type: fc.constantFrom("implement", "test", "fix", "review", "plan" as const),
      description: text,
      "story-ref": text,
    },
    { requiredKeys: ["id", "type", "description"] },
  ),
  instructions: fc.array(text, { maxLength: 3 }),
  scope: fc.record({
    "files-to-modify": fc.array(text, { maxLength: 3 }),
    "files-to-read": fc.array(text, { maxLength: 3 }),
    "files-forbidden": fc.array(text, { maxLength: 3 }),
  }),
  context: fc.array(item, { maxLength: 4 }),
  "output-format": fc.record({
    "required-fields": fc.array(field, { maxLength: 3 }),
    "optional-fields": fc.array(field, { maxLength: 3 }),
  }),
});

/** Parses with saxes in strict mode; throws on any well-formedness error. */
function strictParse(xml: string): void {
  const parser = new SaxesParser({ xmlns: false });
  parser.write(xml).close();
}

describe("subagent-context round trip (property)", () => {
  it("renders well-formed XML for any strings", () => {
    fc.assert(
      fc.property(document, (doc) => {
        strictParse(renderSubagentContext(doc));
      }),
      { numRuns: 500 },
    );
  });

  it("parses back to the sanitized document", () => {
    fc.assert(
      fc.property(document, (doc) => {
        expect(parseSubagentContext(renderSubagentContext(doc))).toEqual(
          sanitizeSubagentContext(doc),
        );
      }),
      { numRuns: 500 },
    );
  });

  it("delivers every item that is earlier work marked untrusted and holding no posing text", () => {
    fc.assert(
      fc.property(document, (doc) => {
        const parsed = parseSubagentContext(renderSubagentContext(doc));
        for (const [index, given] of doc.context.entries()) {
          const delivered = parsed.context[index] as ContextItem;
          const earlier = given.type === "prior-output" || given.untrusted === true;
          expect(delivered.untrusted).toBe(earlier ? true : undefined);
          if (earlier) {
            expect(findPosingText(delivered.content)).toEqual([]);
            expect(findPosingText(delivered.source ?? "")).toEqual([]);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("escapes any text and attribute value so that a strict parser returns it sanitized", () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (value) => {
        const clean = sanitizeXmlText(value);
        const parser = new SaxesParser({ xmlns: false });
        let attribute: string | undefined;
        let content = "";
        parser.on("opentag", (tag) => {
          attribute = tag.attributes.a;
        });
        parser.on("text", (chunk) => {
          content += chunk;
        });
        parser.write(`<x a="${escapeXmlAttribute(clean)}">${escapeXmlText(clean)}</x>`).close();
        expect(attribute).toBe(clean);
        expect(content).toBe(clean);
      }),
      { numRuns: 1000 },
    );
  });

  it("sanitizing is idempotent and leaves nothing XML 1.0 forbids", () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (value) => {
        const clean = sanitizeXmlText(value);
        expect(sanitizeXmlText(clean)).toBe(clean);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: checking they are gone.
        expect(clean).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\r\uFFFE\uFFFF]/);
        expect(clean).not.toMatch(/[\uD800-\uDFFF]/u);
      }),
      { numRuns: 1000 },
    );
  });
});
