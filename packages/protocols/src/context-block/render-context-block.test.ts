import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidContextBlockError } from "../errors/invalid-context-block-error.ts";
import type { ContextBlock } from "../schemas/context-block.ts";
import { SPEC_BLOCK, SPEC_TEXT } from "../test-support/spec-example.ts";
import { parseContextBlock } from "./parse-context-block.ts";
import { renderContextBlock } from "./render-context-block.ts";

/** A minimal block whose `project.stack` is `value`, rendered; returns the stack line. */
function stackLine(value: string): string {
  const text = renderContextBlock({
    version: 1,
    project: { path: "/p", stack: value },
    conventions: { summary: "s" },
  });
  return text.split("\n")[4] as string;
}

describe("renderContextBlock", () => {
  it("writes the spec's example exactly as the spec does", () => {
    expect(renderContextBlock(SPEC_BLOCK)).toBe(SPEC_TEXT);
  });

  it("leaves out optional fields that are absent, in the spec's field order", () => {
    const block = {
      currentWork: { branch: "main", prd: "x" },
      conventions: { summary: "Strict TypeScript." },
      project: { stack: "hono", path: "/repo" },
      version: 1,
    } as const satisfies ContextBlock;
    expect(renderContextBlock(block)).toBe(
      [
        "<context>",
        "version: 1",
        "project:",
        "  path: /repo",
        "  stack: hono",
        "conventions:",
        "  summary: Strict TypeScript.",
        "currentWork:",
        "  prd: x",
        "  branch: main",
        "</context>",
      ].join("\n"),
    );
  });

  it("writes empty commands and currentWork as {}", () => {
    const text = renderContextBlock({
      version: 1,
      project: { path: "/repo", stack: "hono", commands: {} },
      conventions: { summary: "s" },
      currentWork: {},
    });
    expect(text).toBe(
      "<context>\nversion: 1\nproject:\n  path: /repo\n  stack: hono\n  commands: {}\nconventions:\n  summary: s\ncurrentWork: {}\n</context>",
    );
  });

  it.each([
    ["nextjs-prisma", "nextjs-prisma"],
    ["C:\\code\\app", "C:\\code\\app"],
    ["https://example.com/a", "https://example.com/a"],
    ["it's fine", "it's fine"],
    ["yes", "'yes'"],
    ["No", "'No'"],
    ["null", "'null'"],
    ["~", "'~'"],
    ["1.0", "'1.0'"],
    ["0x1F", "'0x1F'"],
    [".inf", "'.inf'"],
    ["-v", "-v"],
    ["a: b", "'a: b'"],
    ["a #b", "'a #b'"],
    ["key:", "'key:'"],
    ["#hash", "'#hash'"],
    ["[list]", "'[list]'"],
    ["*star", "'*star'"],
    ["&anchor", "'&anchor'"],
    ["!tag", "'!tag'"],
    ["|pipe", "'|pipe'"],
    ["%percent", "'%percent'"],
    ["@at", "'@at'"],
    ["`tick", "'`tick'"],
    ["'quoted'", `"'quoted'"`],
    ['"double"', "'\"double\"'"],
    [" leading", "' leading'"],
    ["trailing ", "'trailing '"],
    ["---", "---"],
    ["</context>", "</context>"],
    ["tab\there", "tab\there"],
    ["bell\u0007", '"bell\\a"'],
    ["nul\u0000", '"nul\\0"'],
    ["del\u007f", '"del\\x7F"'],
    ["nel\u0085", '"nel\\N"'],
    ["line\u2028sep", '"line\\Lsep"'],
    ["bom\ufeff", '"bom\\uFEFF"'],
    ["lone \ud800 high", '"lone \\ud800 high"'],
    ["lone \udc00 low", '"lone \\udc00 low"'],
    ["pair 😀", "pair 😀"],
    ["back\\slash", "back\\slash"],
    ["cr\rlf", '"cr\\rlf"'],
  ])("writes %j as %s", (value, written) => {
    expect(stackLine(value)).toBe(`  stack: ${written}`);
  });

  it.each([
    ["two lines\nno final newline", ["  summary: |-", "    two lines", "    no final newline"]],
    ["one final newline\n", ["  summary: |", "    one final newline"]],
    ["kept newlines\n\n\n", ["  summary: |+", "    kept newlines", "", ""]],
    ["\n\nleading blank lines", ["  summary: |-", "    ", "", "    leading blank lines"]],
    ["inner\n\n  indented\n", ["  summary: |", "    inner", "", "      indented"]],
    ["a\n</context>\n```\n#x\n", ["  summary: |", "    a", "    </context>", "    ```", "    #x"]],
    [" leading space\nline", ["  summary: |2-", "     leading space", "    line"]],
    ["tab\tline\nx", ["  summary: |-", "    tab\tline", "    x"]],
    ["ends in spaces\n  ", ['  summary: "ends in spaces\\n  "']],
    ["\n", ['  summary: "\\n"']],
    // yaml alone would write these as blocks that read back without their spaces.
    ["  \n", ['  summary: " \\ \\n"']],
    [" \n\t\n", ['  summary: "\\ \\n\\t\\n"']],
    ["crlf\r\nline", ['  summary: "crlf\\r\\nline"']],
  ])("writes the multi-line summary %j", (summary, lines) => {
    const text = renderContextBlock({
      version: 1,
      project: { path: "/p", stack: "s" },
      conventions: { summary },
    });
    expect(text.split("\n").slice(6, -1)).toEqual(lines);
  });

  it("quotes command names that are not plain names", () => {
    const text = renderContextBlock({
      version: 1,
      project: {
        path: "/p",
        stack: "s",
        commands: { "a: b": "x", "1.0": "y", "": "z", "type:check": "w", "multi\nline": "v" },
      },
      conventions: { summary: "s" },
    });
    expect(text.split("\n").slice(6, 11)).toEqual([
      "    'a: b': x",
      "    '1.0': 'y'",
      "    '': z",
      "    type:check: w",
      '    "multi\\nline": v',
    ]);
  });

  it("writes a key over 1000 characters as an explicit ? key", () => {
    const name = "k".repeat(1500);
    const block: ContextBlock = {
      version: 1,
      project: { path: "/p", stack: "s", commands: { [name]: "two\nlines" } },
      conventions: { summary: "s" },
    };
    const text = renderContextBlock(block);
    expect(text.split("\n").slice(6, 10)).toEqual([
      `    ? ${name}`,
      "    : |-",
      "      two",
      "      lines",
    ]);
    expect(parseContextBlock(text)).toMatchObject({ status: "found", block });
  });

  it("refuses a block that does not match the schema, listing the problems", () => {
    const invalid = {
      version: 1,
      project: { path: "relative", stack: "" },
      conventions: { summary: "s", extra: 1 },
    } as unknown as ContextBlock;
    expect(() => renderContextBlock(invalid)).toThrow(
      expect.objectContaining({
        name: "InvalidContextBlockError",
        code: "INVALID_CONTEXT_BLOCK",
        issues: [
          {
            path: "/project/path",
            message:
              'project.path must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app), not the text "relative".',
          },
          { path: "/project/stack", message: "project.stack must not be empty." },
          {
            path: "/conventions/extra",
            message: 'Unknown field "extra" in conventions. Allowed: summary, fullPath.',
          },
        ],
        message: [
          "Cannot render the context block: it does not match Context Protocol v1.",
          '- /project/path: project.path must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app), not the text "relative".',
          "- /project/stack: project.stack must not be empty.",
          '- /conventions/extra: Unknown field "extra" in conventions. Allowed: summary, fullPath.',
          "Fix these fields (see contextBlockSchema) and render again.",
        ].join("\n"),
      }),
    );
  });

  it("refuses a command named __proto__ instead of dropping it", () => {
    const commands = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    expect(() =>
      renderContextBlock({
        version: 1,
        project: { path: "/p", stack: "s", commands },
        conventions: { summary: "s" },
      }),
    ).toThrow(InvalidContextBlockError);
  });

  it.each([
    [null, "null"],
    [undefined, "undefined"],
    ["version: 1", "a string"],
    [[], "an array"],
  ])("throws ArgumentError for the block %j", (block, shown) => {
    expect(() => renderContextBlock(block as unknown as ContextBlock)).toThrow(
      `Invalid block: expected an object, got ${shown}.`,
    );
  });

  it("refuses values of the wrong type instead of writing them", () => {
    const block = {
      version: 1,
      project: { path: "/p", stack: 42, commands: { test: ["npm", "test"] } },
      conventions: { summary: null },
    } as unknown as ContextBlock;
    expect(() => renderContextBlock(block)).toThrow(InvalidContextBlockError);
    expect(() => renderContextBlock(block)).toThrow(
      expect.objectContaining({
        issues: ["/project/stack", "/project/commands/test", "/conventions/summary"].map((path) =>
          expect.objectContaining({ path }),
        ),
      }),
    );
  });

  it("writes a 1 MB summary that parses back whole", () => {
    const summary = `${"Line of conventions. ".repeat(50_000)}\nlast line\n`;
    const block: ContextBlock = {
      version: 1,
      project: { path: "/p", stack: "s" },
      conventions: { summary },
    };
    const text = renderContextBlock(block);
    expect(parseContextBlock(`${text}\n\nGo.`, { maxBytes: 2_000_000 })).toMatchObject({
      status: "found",
      block,
      request: "Go.",
    });
  });

  describe("round trip (fuzzed)", () => {
    // Strings that stress YAML quoting, the closing tag and fences, plus any code point,
    // including lone surrogates.
    const nasty = fc.constantFrom(
      "</context>",
      "<context>",
      "```",
      "~~~",
      "\n</context>\n",
      "</context>  ",
      "\n",
      "\r\n",
      "\r",
      " ",
      "  ",
      "\t",
      "#",
      " #",
      ": ",
      ":",
      "-",
      "- ",
      "? ",
      "'",
      '"',
      "\\",
      "yes",
      "no",
      "null",
      "~",
      "1.0",
      "0x1F",
      ".inf",
      "true",
      "---",
      "...",
      "|",
      ">",
      "&a",
      "*a",
      "!!js/function",
      "%YAML",
      "@",
      "`",
      "[",
      "]",
      "{",
      "}",
      ",",
      "\u0000",
      "\u0085",
      "\u00a0",
      "\u2028",
      "\ufeff",
      "\ufffe",
      "\ud800",
      "\udfff",
      "😀",
      "é",
      "\u3000",
    );
    const codePoint = fc.oneof(
      fc.string({ unit: "binary", maxLength: 1, minLength: 1 }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
    );
    const text = fc
      .array(fc.oneof(nasty, codePoint, fc.string()), { maxLength: 12 })
      .map((parts) => parts.join(""));
    const nonEmpty = text.filter((value) => value.length > 0);
    const absolutePath = fc.oneof(
      text.map((rest) => `/${rest}`),
      text.map((rest) => `C:\\${rest}`),
    );
    const commandName = text.filter((name) => name !== "__proto__");
    const block: fc.Arbitrary<ContextBlock> = fc.record(
      {
        version: fc.constant(1 as const),
        project: fc.record(
          {
            path: absolutePath,
            stack: nonEmpty,
            commands: fc.dictionary(commandName, text, { maxKeys: 5 }),
          },
          { requiredKeys: ["path", "stack"] },
        ),
        conventions: fc.record(
          { summary: nonEmpty, fullPath: nonEmpty },
          { requiredKeys: ["summary"] },
        ),
        currentWork: fc.record({ prd: text, story: text, branch: text }, { requiredKeys: [] }),
      },
      { requiredKeys: ["version", "project", "conventions"] },
    );
    const request = fc.string().filter((value) => value.trim() === value);

    it("parses every rendered block back to the same block, and the prompt after it", () => {
      fc.assert(
        fc.property(block, request, (generated, prompt) => {
          const rendered = renderContextBlock(generated);
          const parsed = parseContextBlock(`${rendered}\n\n${prompt}`);
          expect(parsed).not.toHaveProperty("issues");
          expect(parsed.status).toBe("found");
          expect(parsed).toMatchObject({ block: generated });
          expect(parsed).toMatchObject({ request: prompt });
        }),
        { numRuns: 1500 },
      );
    });

    it("never writes a YAML line that is exactly </context> or <context>", () => {
      fc.assert(
        fc.property(block, (generated) => {
          const lines = renderContextBlock(generated).split("\n");
          expect(lines[0]).toBe("<context>");
          expect(lines[lines.length - 1]).toBe("</context>");
          for (const line of lines.slice(1, -1)) {
            expect(line.trimEnd()).not.toBe("</context>");
            expect(line.trimEnd()).not.toBe("<context>");
          }
        }),
        { numRuns: 500 },
      );
    });
  });
});
