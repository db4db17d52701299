import { ArgumentError } from "@task-context/core";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Composer, type CST, Lexer, Parser, stringify } from "yaml";
import { InvalidYamlError } from "../errors/invalid-yaml-error.ts";
import { parseUntrustedYaml, type UntrustedYamlOptions } from "./safe-yaml.ts";

/** The plain value of untrusted YAML. */
const yamlValue = (text: string, options?: UntrustedYamlOptions) =>
  parseUntrustedYaml(text, options).value;

/** Matches an InvalidYamlError that has these fields. */
const invalidYaml = (fields: Partial<InvalidYamlError>) =>
  expect.objectContaining({ name: "InvalidYamlError", code: "INVALID_YAML", ...fields });

/** Collection depth of yaml's concrete syntax tree: what its recursive composer descends. */
function treeDepth(tokens: CST.Token | CST.Token[]): number {
  let deepest = 0;
  const visit = (token: CST.Token | null | undefined, depth: number): void => {
    if (token === undefined || token === null) return;
    if (token.type === "document") {
      visit(token.value, depth);
      return;
    }
    if (
      token.type === "block-map" ||
      token.type === "block-seq" ||
      token.type === "flow-collection"
    ) {
      deepest = Math.max(deepest, depth + 1);
      for (const item of token.items) {
        if ("key" in item) visit(item.key, depth + 1);
        visit(item.value, depth + 1);
      }
    }
  };
  for (const token of Array.isArray(tokens) ? tokens : [tokens]) visit(token, 0);
  return deepest;
}

describe("parseUntrustedYaml", () => {
  it("returns plain values for mappings, sequences, block scalars and core-schema scalars", () => {
    const text = [
      "name: Lumen",
      "count: 3",
      "ratio: 1.5",
      "enabled: true",
      "nothing: null",
      "tilde: ~",
      "hex: 0x1F",
      "quoted: '007'",
      "list:",
      "  - a",
      "  - [1, {b: c}]",
      "text: |",
      "  line one",
      "  line two",
      "folded: >-",
      "  one",
      "  two",
      "",
    ].join("\n");
    expect(yamlValue(text)).toEqual({
      name: "Lumen",
      count: 3,
      ratio: 1.5,
      enabled: true,
      nothing: null,
      tilde: null,
      hex: 31,
      quoted: "007",
      list: ["a", [1, { b: "c" }]],
      text: "line one\nline two\n",
      folded: "one two",
    });
  });

  it("reads YAML 1.1 words such as yes, on and 0o17 per the 1.2 core schema", () => {
    expect(yamlValue("a: yes\nb: on\nc: 0o17\nd: 012\n")).toEqual({
      a: "yes",
      b: "on",
      c: 15,
      d: 12,
    });
  });

  it("keeps mapping keys as written, so 1.0, null and true are text keys", () => {
    const value = yamlValue("1.0: a\nnull: b\ntrue: c\n'x y': d\n");
    expect(value).toEqual({ "1.0": "a", null: "b", true: "c", "x y": "d" });
  });

  it("returns null for an empty document", () => {
    expect(yamlValue("")).toBe(null);
    expect(yamlValue("# only a comment\n")).toBe(null);
  });

  it("makes __proto__ an ordinary own key instead of changing the prototype", () => {
    const value = yamlValue(
      "__proto__:\n  polluted: yes\nnested:\n  __proto__: {polluted: true}\n",
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: "yes" });
    const nested = value.nested as Record<string, unknown>;
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(Object.hasOwn(nested, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBe(undefined);
    expect((value as { polluted?: unknown }).polluted).toBe(undefined);
    expect(JSON.stringify(value)).toBe(
      '{"__proto__":{"polluted":"yes"},"nested":{"__proto__":{"polluted":true}}}',
    );
  });

  it("rejects an alias bomb at its first anchor (its time is in bench/)", () => {
    const levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`);
    }
    expect(() => parseUntrustedYaml(levels.join("\n"))).toThrow(
      invalidYaml({
        kind: "anchor",
        line: 1,
        path: "/a",
        message:
          "Invalid YAML at line 1: anchors (&a) are not allowed in untrusted YAML. Remove the anchor and write the values out in full.",
      }),
    );
  });

  it("rejects an alias even without a matching anchor", () => {
    expect(() => parseUntrustedYaml("a: 1\nb: *a\n")).toThrow(
      invalidYaml({
        kind: "alias",
        line: 2,
        path: "/b",
        detail: "aliases (*a) are not allowed in untrusted YAML. Write the value out in full.",
      }),
    );
  });

  it("rejects an alias that refers to an anchor on a key", () => {
    expect(() => parseUntrustedYaml("? &k key\n: 1\nother: *k\n")).toThrow(
      invalidYaml({ kind: "anchor" }),
    );
  });

  it.each([
    ["a: !!js/function 'function () { return 1 }'", "!!js/function"],
    ["a: !!js/undefined ''", "!!js/undefined"],
    ["a: !foo bar", "!foo"],
    ["a: !!binary aGVsbG8=", "!!binary"],
    ["a: !!str 1", "!!str"],
    ["a: ! 1", "!"],
    ["a: !!map {b: c}", "!!map"],
    ["!!str key: value", "!!str"],
  ])("rejects the explicit tag in %j", (text, tag) => {
    expect(() => parseUntrustedYaml(text)).toThrow(
      invalidYaml({
        kind: "tag",
        line: 1,
        detail: `explicit tags (${tag}) are not allowed in untrusted YAML. Remove the tag; quote the value if it should be text.`,
      }),
    );
  });

  it("rejects !!js/function", () => {
    expect(() =>
      parseUntrustedYaml("run: !!js/function >\n  function () { process.exit(1) }\n"),
    ).toThrow(invalidYaml({ kind: "tag", line: 1 }));
  });

  it("rejects a duplicate key with the line of its second occurrence", () => {
    expect(() => parseUntrustedYaml("a: 1\nb:\n  c: 2\n  c: 3\n")).toThrow(
      invalidYaml({
        kind: "duplicate-key",
        line: 4,
        path: "/b/c",
        message:
          'Invalid YAML at line 4: the key "c" appears more than once in the same mapping. Keep only one of them.',
      }),
    );
  });

  it("finds a duplicate at the end of a 4 000-key mapping", () => {
    const keys = Array.from({ length: 4000 }, (_, index) => `k${index}: ${index}`);
    expect(() => parseUntrustedYaml(`${keys.join("\n")}\nk0: again\n`)).toThrow(
      invalidYaml({ kind: "duplicate-key", line: 4001 }),
    );
  });

  it("treats keys that differ only in how they are written as different keys", () => {
    expect(yamlValue("1: a\n1.0: b\n'01': c\n")).toEqual({
      "1": "a",
      "1.0": "b",
      "01": "c",
    });
    expect(() => parseUntrustedYaml("a: 1\n'a': 2\n")).toThrow(
      invalidYaml({ kind: "duplicate-key" }),
    );
  });

  it.each([
    ["flow sequences", `a: ${"[".repeat(10_000)}${"]".repeat(10_000)}`],
    ["flow mappings", `${"{a: ".repeat(10_000)}1${"}".repeat(10_000)}`],
    ["unclosed flow sequences", "[".repeat(10_000)],
    ["compact block sequences", `${"- ".repeat(10_000)}x`],
    ["explicit keys", `${"? ".repeat(10_000)}x`],
    ["mixed flow and block", `${"- [".repeat(5_000)}x`],
  ])("rejects 10 000-deep %s (their time is in bench/)", (_name, text) => {
    expect(() => parseUntrustedYaml(text)).toThrow(
      invalidYaml({
        kind: "too-deep",
        line: 1,
        detail: "mappings and sequences nest deeper than 32 levels. Flatten the structure.",
      }),
    );
  });

  it("rejects block mappings nested by indentation alone, naming the line where the limit is passed", () => {
    const text = Array.from({ length: 300 }, (_, depth) => `${" ".repeat(depth)}a:`).join("\n");
    expect(() => parseUntrustedYaml(text)).toThrow(invalidYaml({ kind: "too-deep", line: 33 }));
  });

  it("accepts nesting up to maxDepth and rejects one level more", () => {
    const flow = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    const block = (depth: number) =>
      Array.from({ length: depth }, (_, level) => `${"  ".repeat(level)}k${level}:`).join("\n") +
      " 1";
    for (const maxDepth of [1, 3, 32]) {
      expect(() => yamlValue(flow(maxDepth), { maxDepth })).not.toThrow();
      expect(() => parseUntrustedYaml(flow(maxDepth + 1), { maxDepth })).toThrow(
        invalidYaml({ kind: "too-deep" }),
      );
      expect(() => yamlValue(block(maxDepth), { maxDepth })).not.toThrow();
      expect(() => parseUntrustedYaml(block(maxDepth + 1), { maxDepth })).toThrow(
        invalidYaml({ kind: "too-deep" }),
      );
    }
  });

  it("rejects a 50 MB scalar by its size alone (its time is in bench/)", () => {
    const text = `summary: ${"x".repeat(50 * 1024 * 1024)}`;
    expect(() => parseUntrustedYaml(text)).toThrow(
      invalidYaml({
        kind: "too-large",
        message:
          "Invalid YAML at line 1: the YAML is larger than the 65536-byte limit for untrusted YAML. Send a shorter document (a context block is normally well under 2 KB).",
      }),
    );
  });

  it("counts the size in UTF-8 bytes and names the line where the limit is passed", () => {
    // 3 bytes per character: 30 000 characters are 90 000 bytes.
    const text = `a: b\nc: ${"€".repeat(30_000)}\n`;
    expect(() => parseUntrustedYaml(text)).toThrow(invalidYaml({ kind: "too-large", line: 2 }));
    expect(() => yamlValue(text, { maxBytes: 100_000 })).not.toThrow();
    // 1 + 2 + 3 + 4 bytes after "a: ": 13 in all; a lone surrogate counts as U+FFFD, 3 bytes.
    expect(yamlValue("a: aé€😀", { maxBytes: 13 })).toEqual({ a: "aé€😀" });
    expect(() => parseUntrustedYaml("a: aé€😀", { maxBytes: 12 })).toThrow(
      invalidYaml({ kind: "too-large" }),
    );
    expect(yamlValue("a: \ud800", { maxBytes: 6 })).toEqual({ a: "\ud800" });
    expect(() => parseUntrustedYaml("a: \ud800", { maxBytes: 5 })).toThrow(
      invalidYaml({ kind: "too-large" }),
    );
  });

  it("rejects more than one document", () => {
    expect(() => parseUntrustedYaml("a: 1\n---\nb: 2\n")).toThrow(
      invalidYaml({ kind: "multiple-documents", line: 2 }),
    );
  });

  it("accepts a single document with explicit start and end markers", () => {
    expect(yamlValue("---\na: 1\n...\n")).toEqual({ a: 1 });
  });

  it("rejects %YAML and %TAG directives", () => {
    expect(() => parseUntrustedYaml("%YAML 1.1\n---\na: yes\n")).toThrow(
      invalidYaml({ kind: "directive" }),
    );
    expect(() => parseUntrustedYaml("%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n")).toThrow(
      invalidYaml({ kind: "directive" }),
    );
  });

  it("names the line and the fix for a syntax error", () => {
    expect(() => parseUntrustedYaml("project:\n  path: /x\n  stack: a: b\n")).toThrow(
      invalidYaml({
        kind: "syntax",
        line: 3,
        message:
          'Invalid YAML at line 3: nested mappings are not allowed in compact mappings. Check the indentation and quoting on this line; quote values that contain ": ", " #" or start with a special character ([ { & * ! | > \' " % @ `).',
      }),
    );
  });

  it("says to indent with spaces when a tab indents", () => {
    expect(() => parseUntrustedYaml("a:\n\tb: 1\n")).toThrow(
      invalidYaml({
        line: 2,
        detail: "tabs are not allowed as indentation. Indent with spaces, not tabs.",
      }),
    );
  });

  it("rejects keys that are not text", () => {
    expect(() => parseUntrustedYaml("? [a, b]\n: c\n")).toThrow(invalidYaml({ kind: "syntax" }));
    expect(() => parseUntrustedYaml("{[a]: b}")).toThrow(invalidYaml({ kind: "syntax" }));
  });

  it("numbers lines from firstLine for YAML embedded in a larger text", () => {
    expect(() => parseUntrustedYaml("a: 1\na: 2\n", { firstLine: 10 })).toThrow(
      invalidYaml({ line: 11 }),
    );
  });

  it("points lineOf at the key of each path", () => {
    const document = parseUntrustedYaml("a:\n  b:\n    - x\n    - y\n", { firstLine: 5 });
    expect(document.lineOf(["a"])).toBe(5);
    expect(document.lineOf(["a", "b"])).toBe(6);
    expect(document.lineOf(["a", "b", 1])).toBe(8);
    expect(document.lineOf(["a", "missing"])).toBe(5);
    expect(document.lineOf(["missing"])).toBe(undefined);
  });

  it("throws ArgumentError for limits that are not whole numbers ≥ 1", () => {
    expect(() => yamlValue("a: 1", { maxBytes: 0 })).toThrow(ArgumentError);
    expect(() => yamlValue("a: 1", { maxDepth: 1.5 })).toThrow(ArgumentError);
    expect(() => yamlValue("a: 1", { firstLine: -1 })).toThrow(ArgumentError);
    expect(() => yamlValue(42 as unknown as string)).toThrow(ArgumentError);
    expect(() => yamlValue(null as unknown as string)).toThrow(ArgumentError);
  });

  it("never hands yaml's composer a syntax tree deeper than maxDepth, and throws only InvalidYamlError (fuzzed)", () => {
    const fragment = fc.constantFrom(
      "[",
      "]",
      "{",
      "}",
      "[[",
      "{a: ",
      "- ",
      "- - ",
      "? ",
      ": ",
      "a",
      "'",
      '"',
      "#",
      " ",
      "  ",
      "\n",
      "\n  ",
      "\n    ",
      "|",
      ">",
      "|2",
      ",",
      "&a ",
      "!t ",
      "*a",
      "\\",
      "---\n",
      "...\n",
      "\t",
      "a:",
      "a: ",
      "\n- ",
      "\n? ",
      "\n: ",
      "a:\n  ",
      "b: [",
      "c: {",
      "-",
      "?",
      ":",
      "\r\n",
      "%YAML 1.2\n",
      "|-\n",
      ">+\n  x\n",
      "'x'",
      '"y"',
      "[a, ",
      "{a, ",
      "-\n",
      "?\n",
      ":\n",
    );
    const maxDepth = 2;
    const composed: number[] = [];
    const next = Composer.prototype.next;
    const spy = vi.spyOn(Composer.prototype, "next").mockImplementation(function (
      this: Composer,
      token: CST.Token,
    ) {
      composed.push(treeDepth(token));
      return next.call(this, token);
    });
    try {
      fc.assert(
        fc.property(fc.array(fragment, { maxLength: 50 }), (fragments) => {
          composed.length = 0;
          try {
            yamlValue(fragments.join(""), { maxDepth });
          } catch (error) {
            expect(InvalidYamlError.isInstance(error)).toBe(true);
          }
          expect(Math.max(0, ...composed)).toBeLessThanOrEqual(maxDepth);
        }),
        { numRuns: 3000 },
      );
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses deep nesting while yaml's parser reads, long before the end of the text (fuzzed)", () => {
    // Repeating a fragment nests it as deep as the input is long; the parser must be stopped
    // long before it has read the whole text (and before its recursion gets deep).
    const shape = fc.constantFrom(
      "[",
      "{a: ",
      "- ",
      "? ",
      ": ",
      "a:\n  ",
      "- a:\n  ",
      "[\n- ",
      "[a b ",
      "'x'a: [",
      "- [",
      "{? a: [",
    );
    const next = Parser.prototype.next;
    let fed = 0;
    const spy = vi.spyOn(Parser.prototype, "next").mockImplementation(function (
      this: Parser,
      source: string,
    ) {
      fed++;
      return next.call(this, source);
    });
    try {
      fc.assert(
        fc.property(shape, fc.integer({ min: 1, max: 4 }), (fragment, maxDepth) => {
          const text = fragment.repeat(400);
          if (treeDepth([...new Parser().parse(text)]) <= maxDepth + 2) return;
          fed = 0;
          expect(() => parseUntrustedYaml(text, { maxDepth })).toThrow(
            invalidYaml({ kind: "too-deep" }),
          );
          expect(fed).toBeLessThan([...new Lexer().lex(text)].length / 10);
        }),
        { numRuns: 100 },
      );
    } finally {
      spy.mockRestore();
    }
  });

  it("accepts every document within maxDepth, in block and in flow style (fuzzed)", () => {
    const maxDepth = 4;
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.string({ minLength: 1 }), tie("value"), { maxKeys: 3 }),
      ),
    }));
    const depthOf = (value: unknown): number =>
      typeof value === "object" && value !== null
        ? 1 + Math.max(0, ...Object.values(value).map(depthOf))
        : 0;
    fc.assert(
      fc.property(value, (generated) => {
        fc.pre(!JSON.stringify(generated).includes("__proto__"));
        const depth = depthOf(generated);
        for (const text of [stringify(generated), JSON.stringify(generated)]) {
          if (depth <= maxDepth) {
            expect(yamlValue(text, { maxDepth })).toEqual(generated);
          } else {
            expect(() => parseUntrustedYaml(text, { maxDepth })).toThrow(
              invalidYaml({ kind: "too-deep" }),
            );
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
