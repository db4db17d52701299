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

/** Default cap on the UTF-8 size of untrusted YAML: 64 KiB. */
export const DEFAULT_MAX_YAML_BYTES = 64 * 1024;

/** Default cap on how deeply mappings and sequences may nest in untrusted YAML. */
export const DEFAULT_MAX_YAML_DEPTH = 32;

/** Options for {@link parseUntrustedYaml}. */
export interface UntrustedYamlOptions {
  /** Largest accepted input, in UTF-8 bytes (default 65 536). Checked before anything is parsed. */
  maxBytes?: number | undefined;
  /** Deepest accepted nesting of mappings and sequences (default 32; the root mapping is 1). */
  maxDepth?: number | undefined;
  /** The line number of the text's first line, for YAML embedded in a larger text (default 1). */
  firstLine?: number | undefined;
}

/** A path to a node: mapping keys and sequence indexes. */
export type YamlPath = readonly (string | number)[];

/** Parsed untrusted YAML, and what is needed to point at its lines afterwards. */
export interface UntrustedYaml {
  /** Plain JavaScript values: objects, arrays, strings, numbers, booleans and null. */
  value: unknown;
  /** Warnings of the YAML parser (the document was still accepted), with their lines. */
  warnings: string[];
  /** The line of the deepest node along `path` that exists (its key, for mapping entries). */
  lineOf(path: YamlPath): number | undefined;
}

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
  prettyErrors: false,
  strict: true,
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
  const maxBytes = requireWholeNumber("maxBytes", options.maxBytes ?? DEFAULT_MAX_YAML_BYTES, 1);
  const maxDepth = requireWholeNumber("maxDepth", options.maxDepth ?? DEFAULT_MAX_YAML_DEPTH, 1);
  const firstLine = requireWholeNumber("firstLine", options.firstLine ?? 1, 1);
  // An error at the very end belongs to the last line, not to the empty one after it.
  const last = text.endsWith("\n") ? text.length - 1 : text.length;
  const lineAt = (offset: number) => lineNumberAt(text, Math.min(offset, last), firstLine);
  const fail = (kind: InvalidYamlKind, offset: number, detail: string, path?: YamlPath): never => {
    const pointer = path === undefined ? undefined : toJsonPointer(path);
    throw new InvalidYamlError({ kind, line: lineAt(offset), detail, path: pointer });
  };

  const overflow = utf8Overflow(text, maxBytes);
  if (overflow !== -1) {
    fail(
      "too-large",
      overflow,
      `the YAML is larger than the ${maxBytes}-byte limit for untrusted YAML. Send a shorter document (a context block is normally well under 2 KB).`,
    );
  }

  const tokens = syntaxTree(text, maxDepth, fail);
  const [document] = new Composer(COMPOSER_OPTIONS).compose(tokens, true, text.length);
  const [error] = document?.errors ?? [];
  if (error !== undefined) fail("syntax", error.pos[0], syntaxAdvice(error.code, error.message));
  const root = document?.contents ?? null;

  const toPlain = (node: Node | null, path: (string | number)[]): unknown => {
    if (node === null) return null;
    const at = node.range?.[0] ?? 0;
    if (isAlias(node)) {
      fail(
        "alias",
        at,
        `aliases (*${node.source}) are not allowed in untrusted YAML. Write the value out in full.`,
        path,
      );
    }
    if (node.anchor) {
      fail(
        "anchor",
        at,
        `anchors (&${node.anchor}) are not allowed in untrusted YAML. Remove the anchor and write the values out in full.`,
        path,
      );
    }
    if (node.tag) {
      const tag = node.tag.replace(/^tag:yaml\.org,2002:/, "!!");
      fail(
        "tag",
        at,
        `explicit tags (${tag}) are not allowed in untrusted YAML. Remove the tag; quote the value if it should be text.`,
        path,
      );
    }
    if (isScalar(node)) return node.value;
    if (isSeq(node))
      return node.items.map((item, index) => toPlain(item as Node, [...path, index]));
    if (!isMap(node))
      return fail(
        "syntax",
        at,
        "unsupported YAML node. Use plain mappings, sequences and scalars.",
        path,
      );
    const object: Record<string, unknown> = {};
    for (const { key, value } of node.items) {
      // With stringKeys, every key that gets here is a string scalar (others are errors).
      const name = isScalar(key) ? String(key.value) : "";
      const keyPath = [...path, name];
      toPlain(key as Node, keyPath);
      if (Object.hasOwn(object, name)) {
        fail(
          "duplicate-key",
          (key as Node).range?.[0] ?? at,
          `the key ${JSON.stringify(name)} appears more than once in the same mapping. Keep only one of them.`,
          keyPath,
        );
      }
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
    lineOf: (path) => lineOfPath(root, path, lineAt),
  };
}

/**
 * The index of the first UTF-16 unit that takes the UTF-8 encoding of `text` over `maxBytes`, or
 * -1. Encodes at most `maxBytes` bytes, whatever the length of `text`.
 */
function utf8Overflow(text: string, maxBytes: number): number {
  if (text.length * 3 <= maxBytes) return -1;
  // Longer than the limit in UTF-16 units is too large in bytes too: no need to read it.
  if (text.length > maxBytes) return 0;
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(maxBytes));
  return read === text.length ? -1 : read;
}

/**
 * yaml's concrete syntax tree of `text`, built token by token so that nesting deeper than
 * `maxDepth` is refused while it grows: yaml's parser closes deep block collections recursively
 * and grows slower with depth, so a 30 000-deep document must never reach it whole. Refuses a
 * second document, a directive and a syntax error outside the document as they come, and checks
 * each finished tree's exact depth (the parser may nest a collection after the fact, as the key
 * of a mapping) before the composer descends into it.
 */
function syntaxTree(
  text: string,
  maxDepth: number,
  fail: (kind: InvalidYamlKind, offset: number, detail: string) => never,
): CST.Token[] {
  const tooDeep = (offset: number) =>
    fail(
      "too-deep",
      offset,
      `mappings and sequences nest deeper than ${maxDepth} levels. Flatten the structure.`,
    );
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  const accept = (token: CST.Token) => {
    if (token.type === "document" && tokens.some((other) => other.type === "document")) {
      fail(
        "multiple-documents",
        token.offset,
        'the text holds more than one YAML document. Remove the "---" line that starts the second one.',
      );
    }
    if (token.type === "directive") {
      fail(
        "directive",
        token.offset,
        "YAML directives (%YAML, %TAG) are not allowed in untrusted YAML. Remove the line.",
      );
    }
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

function lineOfPath(root: Node | null, path: YamlPath, lineAt: (offset: number) => number) {
  let node: unknown = root;
  let offset: number | undefined;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair === undefined) break;
      offset = (pair.key as Node).range?.[0];
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as Node | undefined;
      if (item === undefined) break;
      offset = item.range?.[0];
      node = item;
    } else break;
  }
  return offset === undefined ? undefined : lineAt(offset);
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
