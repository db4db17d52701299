import { describe, expect, it } from "vitest";
import { emptyDocument, specDocument } from "../test-support/sage-documents.ts";
import { parseSubagentContext } from "./parse-subagent-context.ts";
import { renderSubagentContext, sanitizeSubagentContext } from "./render-subagent-context.ts";

/** Matches an InvalidSubagentContextError that has these fields. */
const invalidDocument = (fields: Record<string, unknown>) =>
  expect.objectContaining({
    name: "InvalidSubagentContextError",
    code: "INVALID_SUBAGENT_CONTEXT",
    ...fields,
  });

const minimal = (body: string) =>
  `<subagent-context version="1.0">
  <task><id>T-1</id><type>plan</type><description>d</description></task>
  <instructions/>
  <scope><files-to-modify/><files-to-read/><files-forbidden/></scope>
  ${body}
  <output-format><required-fields/><optional-fields/></output-format>
</subagent-context>`;

describe("parseSubagentContext", () => {
  it("reads back what renderSubagentContext wrote", () => {
    expect(parseSubagentContext(renderSubagentContext(specDocument))).toEqual(
      sanitizeSubagentContext(specDocument),
    );
    expect(parseSubagentContext(renderSubagentContext(emptyDocument))).toEqual(emptyDocument);
  });

  it("reads spec 002's example as written, comment included", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<subagent-context version="1.0">
  <task>
    <id>T-1</id>
    <type>implement</type>
    <description>Add export</description>
    <story-ref>docs/story.md</story-ref>
  </task>
  <instructions>
    <!-- Task-specific directives based on subagent type -->
    <instruction>Follow TDD: write failing test first</instruction>
  </instructions>
  <scope>
    <files-to-modify><file>src/a.ts</file></files-to-modify>
    <files-to-read><file>src/b.ts</file></files-to-read>
    <files-forbidden><pattern>dist/**</pattern></files-forbidden>
  </scope>
  <context>
    <item type="story-excerpt">Users export notes.</item>
  </context>
  <output-format>
    <required-fields><field name="status">success | failure | blocked</field></required-fields>
    <optional-fields/>
  </output-format>
</subagent-context>`;
    expect(parseSubagentContext(xml)).toEqual({
      version: "1.0",
      task: {
        id: "T-1",
        type: "implement",
        description: "Add export",
        "story-ref": "docs/story.md",
      },
      instructions: ["Follow TDD: write failing test first"],
      scope: {
        "files-to-modify": ["src/a.ts"],
        "files-to-read": ["src/b.ts"],
        "files-forbidden": ["dist/**"],
      },
      context: [{ type: "story-excerpt", content: "Users export notes." }],
      "output-format": {
        "required-fields": [{ name: "status", description: "success | failure | blocked" }],
        "optional-fields": [],
      },
    });
  });

  it("keeps leaf text exactly and reads CDATA, references, a BOM and self-closing leaves", () => {
    const doc = parseSubagentContext(
      `\uFEFF${minimal(`<context><item type="a" path="x&#10;y">  <![CDATA[<b> & ]]>&lt;&#x1F600;  </item><item type="b"/></context>`)}`,
    );
    expect(doc.context).toEqual([
      { type: "a", path: "x\ny", content: "  <b> & <\u{1F600}  " },
      { type: "b", content: "" },
    ]);
  });

  it("refuses a DOCTYPE, so no DTD or custom entity is ever read", () => {
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE subagent-context [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n${minimal("<context/>")}`;
    expect(() => parseSubagentContext(xml)).toThrow(
      invalidDocument({
        message:
          'Invalid subagent-context document at line 2, column 70: a DOCTYPE is not allowed (no DTDs or custom entities). Render documents with renderSubagentContext so that they follow the <subagent-context version="1.0"> shape.',
        line: 2,
        column: 70,
      }),
    );
  });

  it("refuses an undefined entity with its line and column", () => {
    expect(() =>
      parseSubagentContext(minimal(`<context><item type="a">&xxe;</item></context>`)),
    ).toThrow(
      invalidDocument({
        issues: [{ path: "", message: "undefined entity.", line: 5, column: 32 }],
      }),
    );
  });

  it("refuses ill-formed XML with its line and column", () => {
    const firstIssue = (message: string) => [expect.objectContaining({ message })];
    expect(() =>
      parseSubagentContext(`<subagent-context version="1.0">\n  <task>\n</subagent-context>`),
    ).toThrow(
      invalidDocument({ issues: firstIssue("unexpected close tag."), line: 3, column: 20 }),
    );
    expect(() => parseSubagentContext("<subagent-context>\u0001</subagent-context>")).toThrow(
      invalidDocument({ issues: firstIssue("disallowed character.") }),
    );
    expect(() => parseSubagentContext("")).toThrow(
      invalidDocument({ issues: firstIssue("document must contain a root element.") }),
    );
  });

  it.each([
    ["<context/>", "the root element must be <subagent-context>, found <context>"],
    [
      minimal("<context><file>x</file></context>"),
      "<file> is not allowed inside <context>; expected <item>",
    ],
    [
      minimal(`<context><item type="a" mode="x">y</item></context>`),
      '<item> takes only type, untrusted, source and path attributes, found mode="…"',
    ],
    [
      minimal("<context><item type='a'>x<b/></item></context>"),
      "<b> is not allowed inside <item>, which holds text only",
    ],
    [minimal("<context/><context/>"), "<context> appears more than once inside <subagent-context>"],
    [minimal("<context>loose text</context>"), "text is not allowed directly inside <context>"],
  ])("refuses elements and attributes outside the document's shape: %j", (xml, problem) => {
    expect(() => parseSubagentContext(xml)).toThrow(
      invalidDocument({ message: expect.stringContaining(problem) }),
    );
  });

  it("names an unknown element with its line and column", () => {
    expect(() => parseSubagentContext(minimal("<context/><extra/>"))).toThrow(
      invalidDocument({
        issues: [
          {
            path: "",
            message:
              "<extra> is not allowed inside <subagent-context>; expected <task>, <instructions>, <scope>, <context>, <output-format>",
            line: 5,
            column: 21,
          },
        ],
      }),
    );
  });

  it("refuses values outside the schema, pointing at their element", () => {
    const xml = renderSubagentContext(specDocument)
      .replace("<type>implement</type>", "<type>deploy</type>")
      .replace('<subagent-context version="1.0">', '<subagent-context version="2.0">');
    expect(() => parseSubagentContext(xml)).toThrow(
      invalidDocument({
        issues: [
          expect.objectContaining({ path: "/version", line: 2, column: 33 }),
          expect.objectContaining({ path: "/task/type", line: 6, column: 11 }),
        ],
        message: expect.stringMatching(
          /^Invalid subagent-context document at line 2, column 33: version must be "1\.0", not the string "2\.0"; task\.type must be one of /,
        ),
      }),
    );
  });

  it("refuses a document without a required section", () => {
    const xml = `<subagent-context version="1.0">
  <task><id>T-1</id><type>plan</type><description>d</description></task>
</subagent-context>`;
    expect(() => parseSubagentContext(xml)).toThrow(
      invalidDocument({
        issues: ["/instructions", "/scope", "/context", "/output-format"].map((path) =>
          expect.objectContaining({ path }),
        ),
        line: 1,
      }),
    );
  });
});
