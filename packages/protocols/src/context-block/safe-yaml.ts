import { lineNumberAt, requireString, requireWholeNumber } from "@task-context/core/internal";
import {
  Composer,
  type CST,
  type DocumentOptions,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  type Node,
  type ParseOptions,
  Parser,
  type SchemaOptions,
} from "#yaml";
import { InvalidYamlError, type InvalidYamlKind } from "../errors/invalid-yaml-error.ts";
import { toJsonPointer } from "../validate/issues.ts";

/**
 * `maxBytes` (default 64 KiB) and `maxDepth` (default 32; the root is 1) bound the input;
 * `firstLine` numbers the lines of YAML embedded in a larger text (default 1).
 */
export type UntrustedYamlOptions = {
  [Option in "maxBytes" | "maxDepth" | "firstLine"]?: number | undefined;
};

type YamlPath = readonly (string | number)[];

/**
 * The plain `value` (objects, arrays, strings, numbers, booleans, null), the parser's `warnings`
 * (with lines), and `lineOf(path)`: the line of the deepest node along `path` (a key's line).
 */
export interface UntrustedYaml {
  value: unknown;
  warnings: string[];
  lineOf(path: YamlPath): number | undefined;
}

/** What each refusal says after "Invalid YAML at line N: ", given its subject. */
const REFUSALS: Record<InvalidYamlKind, (subject: string) => string> = {
  "too-large": (limit) =>
    `the YAML is larger than the ${limit}-byte limit for untrusted YAML. Send a shorter document (a context block is normally well under 2 KB).`,
  "too-deep": (limit) =>
    `mappings and sequences nest deeper than ${limit} levels. Flatten the structure.`,
  "multiple-documents": () =>
    'the text holds more than one YAML document. Remove the "---" line that starts the second one.',
  directive: () =>
    "YAML directives (%YAML, %TAG) are not allowed in untrusted YAML. Remove the line.",
  alias: (name) =>
    `aliases (*${name}) are not allowed in untrusted YAML. Write the value out in full.`,
  anchor: (name) =>
    `anchors (&${name}) are not allowed in untrusted YAML. Remove the anchor and write the values out in full.`,
  tag: (tag) =>
    `explicit tags (${tag}) are not allowed in untrusted YAML. Remove the tag; quote the value if it should be text.`,
  "duplicate-key": (key) =>
    `the key ${JSON.stringify(key)} appears more than once in the same mapping. Keep only one of them.`,
  syntax: (advice) => advice,
};

type Fail = (kind: InvalidYamlKind, offset: number, subject: string, path?: YamlPath) => never;

// YAML 1.2 core schema, no custom tags, no merge keys, keys kept as written (`1.0: x` has the
// key "1.0"). Duplicate keys are found while converting, by hash lookup: yaml's own check
// compares every pair of keys (1.6 s for a 64 KiB mapping; see bench/context-block.bench.ts).
const COMPOSER_OPTIONS: DocumentOptions & ParseOptions & SchemaOptions = {
  version: "1.2",
  schema: "core",
  customTags: [],
  merge: false,
  stringKeys: true,
  uniqueKeys: false,
};

const COLLECTIONS = new Set(["block-map", "block-seq", "flow-collection"]);

/**
 * Parses YAML from an untrusted source (a prompt, a file a model wrote) into plain values,
 * refusing what makes YAML dangerous to parse or surprising to read, each with its line:
 *
 * - more than `maxBytes` UTF-8 bytes, refused before any parsing;
 * - nesting deeper than `maxDepth`, refused while yaml's syntax-tree parser reads the tokens (as
 *   soon as its stack of open collections is too deep), and checked again, exactly, on the tree
 *   before yaml's composer (which recurses) sees it;
 * - anchors and aliases (no alias bombs), explicit tags, `%YAML`/`%TAG` directives, several
 *   documents, duplicate keys and keys that are not text.
 *
 * A `__proto__` key becomes an ordinary own property (no prototype pollution).
 *
 * @throws {InvalidYamlError} whose message names the line, what is wrong and what to do.
 */
export function parseUntrustedYaml(
  text: string,
  options: UntrustedYamlOptions = {},
): UntrustedYaml {
  requireString("text", text);
  const { maxBytes = 64 * 1024, maxDepth = 32, firstLine = 1 } = options;
  requireWholeNumber("maxBytes", maxBytes, 1);
  requireWholeNumber("maxDepth", maxDepth, 1);
  requireWholeNumber("firstLine", firstLine, 1);
  // An error at the very end belongs to the last line, not to the empty one after it.
  const last = text.endsWith("\n") ? text.length - 1 : text.length;
  const lineAt = (offset: number) => lineNumberAt(text, Math.min(offset, last), firstLine);
  const fail: Fail = (kind, offset, subject, path) => {
    const detail = REFUSALS[kind](subject);
    const pointer = path === undefined ? undefined : toJsonPointer(path);
    throw new InvalidYamlError({ kind, line: lineAt(offset), detail, path: pointer });
  };

  // Encodes at most `maxBytes`; a text longer than that in UTF-16 units is too large anyway.
  const { read } =
    text.length * 3 <= maxBytes || text.length > maxBytes
      ? { read: text.length > maxBytes ? 0 : text.length }
      : new TextEncoder().encodeInto(text, new Uint8Array(maxBytes));
  if (read < text.length) fail("too-large", read, String(maxBytes));

  const tokens = syntaxTree(text, maxDepth, fail);
  const [document] = new Composer(COMPOSER_OPTIONS).compose(tokens, true, text.length);
  const [error] = document?.errors ?? [];
  if (error !== undefined) fail("syntax", error.pos[0], syntaxAdvice(error.code, error.message));
  const root = document?.contents ?? null;

  // Converts the composed document to plain values, refusing what untrusted YAML may not use.
  const toPlain = (node: Node | null, path: (string | number)[]): unknown => {
    if (node === null) return null;
    const at = node.range?.[0] ?? 0;
    if (isAlias(node)) fail("alias", at, node.source, path);
    if (node.anchor) fail("anchor", at, node.anchor, path);
    if (node.tag) fail("tag", at, node.tag.replace(/^tag:yaml\.org,2002:/, "!!"), path);
    if (isScalar(node)) return node.value;
    if (isSeq(node))
      return node.items.map((item, index) => toPlain(item as Node, [...path, index]));
    const object: Record<string, unknown> = {};
    // A composed document's other nodes are mappings.
    for (const { key, value } of isMap(node) ? node.items : []) {
      // With stringKeys, every key that gets here is a string scalar (others are errors).
      const name = isScalar(key) ? String(key.value) : "";
      const keyPath = [...path, name];
      toPlain(key as Node, keyPath);
      if (Object.hasOwn(object, name))
        fail("duplicate-key", (key as Node).range?.[0] ?? at, name, keyPath);
      // defineProperty, so that a `__proto__` key stays an ordinary own property.
      Object.defineProperty(object, name, {
        value: toPlain(value as Node | null, keyPath),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  };

  return {
    value: toPlain(root, []),
    warnings: (document?.warnings ?? []).map(
      (warning) => `line ${lineAt(warning.pos[0])}: ${warning.message}`,
    ),
    lineOf(path) {
      let node: unknown = root;
      let offset: number | undefined;
      for (const segment of path) {
        const pair = isMap(node)
          ? node.items.find(
              (item) => isScalar(item.key) && String(item.key.value) === String(segment),
            )
          : undefined;
        const next =
          pair === undefined ? (isSeq(node) ? node.items[Number(segment)] : undefined) : pair.key;
        if (next === undefined || next === null) break;
        offset = (next as Node).range?.[0];
        node = pair === undefined ? next : pair.value;
      }
      return offset === undefined ? undefined : lineAt(offset);
    },
  };
}

/**
 * yaml's concrete syntax tree, built token by token so that nesting deeper than `maxDepth` is
 * refused while it grows (yaml's parser closes deep block collections recursively). A second
 * document, a directive or a syntax error outside the document is refused as it comes, and each
 * finished tree's exact depth is checked (the parser may nest a collection after the fact, as the
 * key of a mapping) before the composer descends into it.
 */
function syntaxTree(text: string, maxDepth: number, fail: Fail): CST.Token[] {
  const tooDeep = (offset: number) => fail("too-deep", offset, String(maxDepth));
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  const accept = (token: CST.Token) => {
    if (token.type === "document" && tokens.some((other) => other.type === "document")) {
      fail("multiple-documents", token.offset, "");
    }
    if (token.type === "directive") fail("directive", token.offset, "");
    if (token.type === "error") {
      fail("syntax", token.offset, syntaxAdvice("UNEXPECTED_TOKEN", token.message));
    }
    // The exact depth, walked without recursion.
    const pending: Array<[CST.Token | null | undefined, number]> = [[token, 0]];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const [current, depth] = next;
      if (current?.type === "document") pending.push([current.value, depth]);
      else if (current !== null && current !== undefined && COLLECTIONS.has(current.type)) {
        if (depth >= maxDepth) tooDeep(current.offset);
        for (const item of (current as CST.BlockMap | CST.FlowCollection).items) {
          if ("key" in item) pending.push([item.key, depth + 1]);
          pending.push([item.value, depth + 1]);
        }
      }
    }
    tokens.push(token);
  };
  for (const lexeme of new Lexer().lex(text)) {
    const offset = parser.offset;
    for (const token of parser.next(lexeme)) accept(token);
    // Every collection on the parser's stack encloses the next one: their count is the depth.
    if (parser.stack.length > maxDepth) {
      let open = 0;
      for (const token of parser.stack) if (COLLECTIONS.has(token.type)) open++;
      if (open > maxDepth) tooDeep(offset);
    }
  }
  for (const token of parser.end()) accept(token);
  return tokens;
}

const ADVICE: Partial<Record<string, string>> = {
  TAB_AS_INDENT: "Indent with spaces, not tabs.",
  NON_STRING_KEY: "Mapping keys must be plain text; quote the key.",
  KEY_OVER_1024_CHARS: "Keep keys shorter than 1024 characters.",
  BAD_DQ_ESCAPE:
    'Fix the escape sequence in the double-quoted string (\\n, \\t, \\", \\\\, \\uXXXX …).',
  MULTILINE_IMPLICIT_KEY: "A key must fit on one line; check the indentation of the lines above.",
  BAD_INDENT: "Align entries of the same mapping or list at the same column, with spaces.",
  MISSING_CHAR: "Close the quote or bracket that was opened.",
};

/** yaml's message, then what to do about it. */
function syntaxAdvice(code: string, message: string): string {
  const text = message.replace(/\s+$/, "").replace(/\.$/, "");
  const advice =
    ADVICE[code] ??
    'Check the indentation and quoting on this line; quote values that contain ": ", " #" or start with a special character ([ { & * ! | > \' " % @ `).';
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}. ${advice}`;
}
