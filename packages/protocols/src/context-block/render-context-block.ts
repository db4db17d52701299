import { requireObject } from "@task-context/core/internal";
import { Document, isScalar, Scalar, visit } from "#yaml";
import { InvalidContextBlockError } from "../errors/invalid-context-block-error.ts";
import { type ContextBlock, contextBlockSchema } from "../schemas/context-block.ts";
import { checkValue } from "../validate/issues.ts";

// Characters YAML may not hold literally (controls, U+FEFF, U+FFFE/FFFF, lone surrogates) or that
// readers may take for line breaks (NEL, U+2028/2029): a string with one is double-quoted.
const SPECIAL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udfff]/u;
// Whitespace-only lines: yaml writes them as a block scalar that reads back without the spaces.
const BLANK_LINES = /^[ \t]*\n[ \t\n]*$/;
// Those that yaml's double-quoted writer leaves raw; escaped after it.
const LEFT_RAW = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;
const ESCAPES: Record<string, string> = { "\u0085": "\\N", "\u2028": "\\L", "\u2029": "\\P" };

/**
 * Writes a Context Protocol v1 block: `<context>`, the YAML, `</context>` (no trailing newline;
 * put a blank line between it and the request). Fields come in the protocol's order, indented by
 * two spaces, multi-line text as a literal block (`|`) as the protocol writes
 * `conventions.summary`. Text is quoted wherever a YAML 1.2 or 1.1 reader would take it for
 * something else (`yes`, `null`, `1.0`, `12:30`, `: `), and characters YAML cannot hold literally
 * are escaped in double quotes. No YAML line is ever exactly `</context>`, so
 * `parseContextBlock(renderContextBlock(block) + "\n\n" + request)` gives back `block` and
 * `request`. See https://github.com/task-context/task-context/blob/main/docs/context-protocol.md.
 *
 * @throws {InvalidContextBlockError} when `block` is not a Context Protocol v1 block.
 * @throws {ArgumentError} when `block` is not an object.
 *
 * @example
 * ```ts source="../../examples/render-context-block.ts"
 * import { renderContextBlock } from "@task-context/protocols/context-block";
 *
 * const block = renderContextBlock({
 *   version: 1,
 *   project: { path: "/srv/app", stack: "hono", commands: { test: "npm test" } },
 *   conventions: {
 *     summary: "ESM only. Zod for validation.\nHono routes in src/routes/.\n",
 *     fullPath: "/srv/app/docs/CONVENTIONS.md",
 *   },
 * });
 * const prompt = `${block}\n\nAdd a health route.`;
 * console.log(block);
 * // <context>
 * // version: 1
 * // project:
 * //   path: /srv/app
 * //   stack: hono
 * //   commands:
 * //     test: npm test
 * // conventions:
 * //   summary: |
 * //     ESM only. Zod for validation.
 * //     Hono routes in src/routes/.
 * //   fullPath: /srv/app/docs/CONVENTIONS.md
 * // </context>
 * ```
 */
export function renderContextBlock(block: ContextBlock): string {
  requireObject("block", block);
  const checked = checkValue(contextBlockSchema, block, { yaml: true, root: "the block" });
  if (!checked.valid) throw new InvalidContextBlockError({ issues: checked.issues });
  // zod's output has the protocol's field order, whatever the order of `block`.
  const document = new Document(checked.data, {
    version: "1.2",
    schema: "core",
    // Quote plain text that a YAML 1.1 reader would take for a boolean, number or null.
    compat: "yaml-1.1",
  });
  const quoteIfSpecial = (node: unknown) => {
    const value = isScalar(node) ? node.value : undefined;
    if (typeof value === "string" && (SPECIAL.test(value) || BLANK_LINES.test(value))) {
      (node as Scalar).type = Scalar.QUOTE_DOUBLE;
    }
  };
  visit(document, {
    Pair: (_, pair) => quoteIfSpecial(pair.key),
    Scalar: (_, node) => quoteIfSpecial(node),
  });
  const yaml = document
    .toString({
      lineWidth: 0,
      blockQuote: "literal",
      singleQuote: true,
      doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER,
    })
    .replace(LEFT_RAW, (character) => {
      const code = character.charCodeAt(0);
      return (
        ESCAPES[character] ??
        (code < 0x100
          ? `\\x${code.toString(16).toUpperCase()}`
          : `\\u${code.toString(16).toUpperCase()}`)
      );
    });
  return `<context>\n${yaml}</context>`;
}
