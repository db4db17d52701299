import { ArgumentError } from "@task-context/core";
import {
  Composer,
  CST,
  type Document,
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
import { toJsonPointer } from "./json-pointer.ts";

/** Default cap on the UTF-8 size of untrusted YAML: 64 KiB. */
export const DEFAULT_MAX_YAML_BYTES = 64 * 1024;

/** Default cap on how deeply mappings and sequences may nest in untrusted YAML. */
export const DEFAULT_MAX_YAML_DEPTH = 32;

/** Options for {@link parseUntrustedYaml}. */
export interface ParseUntrustedYamlOptions {
  /** Largest accepted input, in UTF-8 bytes (default 65 536). Checked before anything is parsed. */
  maxBytes?: number;
  /** Deepest accepted nesting of mappings and sequences (default 32; the root mapping is 1). */
  maxDepth?: number;
  /**
   * The line number of the text's first line, for YAML embedded in a larger document (default 1):
   * error messages then name lines of the larger document.
   */
  firstLine?: number;
}

/** A path to a node: mapping keys and sequence indexes. */
export type YamlPath = readonly (string | number)[];

/** Parsed untrusted YAML plus what is needed to point at its lines afterwards. */
export interface UntrustedYamlDocument {
  /** The plain JavaScript value: objects, arrays, strings, numbers, booleans and null. */
  value: unknown;
  /** Warnings the YAML parser reported (the document was still accepted). */
  warnings: string[];
  /** The line of the deepest node along `path` that exists (its key, for mapping entries). */
  lineOf(path: YamlPath): number | undefined;
}

/** The limits of a parse, defaults filled in. */
export interface Limits {
  maxBytes: number;
  maxDepth: number;
  firstLine: number;
}

const COMPOSER_OPTIONS: DocumentOptions & ParseOptions & SchemaOptions = {
  version: "1.2",
  schema: "core",
  customTags: [],
  merge: false,
  // Keys are kept as written (`1.0: x` has the key "1.0"); non-string keys are errors.
  stringKeys: true,
  // Checked in linear time while converting: yaml's own check compares every pair of keys.
  uniqueKeys: false,
  prettyErrors: false,
  strict: true,
};

/**
 * Parses YAML from an untrusted source (a prompt, a file a model wrote) into plain JavaScript
 * values, refusing everything that makes YAML dangerous to parse or surprising to read:
 *
 * - input over `maxBytes` (64 KiB) UTF-8 bytes, refused before any parsing;
 * - nesting deeper than `maxDepth` (32): flow brackets and block indentation are counted on the
 *   lexer's token stream *before* each token reaches the parser, so a 10 000-deep document is
 *   refused after a few dozen tokens instead of being parsed, and the syntax tree's depth is
 *   checked exactly before the composer (which recurses) descends into it;
 * - anchors and aliases (no alias bombs), explicit tags (`!!js/function`, `!foo`, `!!binary`, `!`),
 *   `%YAML`/`%TAG` directives, several documents, duplicate and non-string keys.
 *
 * YAML 1.2 core schema, no custom tags, no merge keys. A `__proto__` key becomes an ordinary own
 * property (no prototype pollution).
 *
 * Runs on Node, Bun, Deno and Workers. On Deno it uses a bundled copy of `yaml`'s browser build
 * (`#yaml`), because the package's Node build reads environment variables on every token, which
 * Deno refuses without `--allow-env`; a permission error is still passed on as is, never reported
 * as invalid YAML.
 *
 * @throws {InvalidYamlError} whose message names the line, what is wrong and what to do.
 *
 * @example
 * ```ts
 * parseUntrustedYaml("stack: nextjs-prisma\ncommands:\n  test: npm test\n");
 * // → { stack: "nextjs-prisma", commands: { test: "npm test" } }
 * parseUntrustedYaml("a: &x [1]\nb: *x\n");
 * // throws InvalidYamlError: "Invalid YAML at line 1: anchors (&x) are not allowed …"
 * ```
 */
export function parseUntrustedYaml(text: string, options: ParseUntrustedYamlOptions = {}): unknown {
  return parseUntrustedYamlDocument(text, options).value;
}

/**
 * {@link parseUntrustedYaml}, keeping the document so that callers can name the line of any
 * path afterwards (for schema errors), and the parser's warnings.
 */
export function parseUntrustedYamlDocument(
  text: string,
  options: ParseUntrustedYamlOptions = {},
): UntrustedYamlDocument {
  if (typeof text !== "string") {
    throw new ArgumentError({
      argument: "text",
      message: `expected a string of YAML, got ${typeof text}.`,
    });
  }
  const limits = resolveLimits(options);
  const lines = lineLocator(text, limits.firstLine);

  // Longer than the limit in UTF-16 units is too large in bytes too: refuse without reading the
  // text (reading a huge concatenated string would first copy it flat).
  const overflow = text.length > limits.maxBytes ? 0 : utf8Overflow(text, limits.maxBytes);
  if (overflow !== -1) {
    fail(
      "too-large",
      overflow === 0 ? limits.firstLine : lines(overflow),
      `the YAML is larger than the ${limits.maxBytes}-byte limit for untrusted YAML. Send a shorter document (a context block is normally well under 2 KB).`,
    );
  }

  let document: Document.Parsed | undefined;
  try {
    const composer = new Composer(COMPOSER_OPTIONS);
    for (const composed of composer.compose(
      checkedTokens(text, limits, lines),
      true,
      text.length,
    )) {
      if (document === undefined) {
        document = composed;
      } else {
        fail(
          "multiple-documents",
          lines(composed.range[0]),
          'the text holds more than one YAML document. Remove the "---" line that starts the second one.',
        );
      }
    }
  } catch (error) {
    if (InvalidYamlError.isInstance(error)) throw error;
    // A runtime permission error (Deno's NotCapable) is not a property of the document: pass it on
    // rather than report every document as invalid.
    if (
      error instanceof Error &&
      (error.name === "NotCapable" || error.name === "PermissionDenied")
    ) {
      throw error;
    }
    // The yaml package does not throw on any input we know of; should it, report it as invalid.
    fail(
      "syntax",
      limits.firstLine,
      `the YAML parser failed (${error instanceof Error ? error.message : String(error)}). Simplify the document.`,
      undefined,
      error,
    );
  }
  if (document === undefined) return { value: null, warnings: [], lineOf: () => undefined };

  const [first] = document.errors;
  if (first !== undefined) {
    fail("syntax", lines(first.pos[0]), syntaxAdvice(first.code, first.message));
  }
  if (hasDirectives(document)) {
    fail(
      "directive",
      lines(directiveOffset(text)),
      "YAML directives (%YAML, %TAG) are not allowed in untrusted YAML. Remove the line.",
    );
  }

  const value = toPlain(document.contents, [], 0, limits, lines);
  const root = document.contents;
  return {
    value,
    warnings: document.warnings.map(
      (warning) => `line ${lines(warning.pos[0])}: ${warning.message}`,
    ),
    lineOf: (path) => lineOfPath(root, path, lines),
  };
}

/** Validates the limits of {@link ParseUntrustedYamlOptions}, filling in the defaults. */
export function resolveLimits(options: ParseUntrustedYamlOptions): Limits {
  const check = (
    name: keyof ParseUntrustedYamlOptions,
    value: number | undefined,
    fallback: number,
  ) => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new ArgumentError({
        argument: name,
        message: `expected a whole number ≥ 1, got ${String(value)}.`,
      });
    }
    return value;
  };
  return {
    maxBytes: check("maxBytes", options.maxBytes, DEFAULT_MAX_YAML_BYTES),
    maxDepth: check("maxDepth", options.maxDepth, DEFAULT_MAX_YAML_DEPTH),
    firstLine: check("firstLine", options.firstLine, 1),
  };
}

function fail(
  kind: InvalidYamlKind,
  line: number,
  detail: string,
  path?: YamlPath,
  cause?: unknown,
): never {
  throw new InvalidYamlError({
    kind,
    line,
    detail,
    path: path === undefined ? undefined : toJsonPointer(path),
    cause,
  });
}

/** Maps a UTF-16 offset to its line number; counts lazily, so the happy path pays nothing. */
function lineLocator(text: string, firstLine: number): (offset: number) => number {
  return (offset) => {
    let line = firstLine;
    let end = Math.min(Math.max(offset, 0), text.length);
    // An error at the end of the input belongs to the last line, not to the empty one after it.
    if (end === text.length && text.endsWith("\n")) end--;
    for (
      let index = text.indexOf("\n");
      index !== -1 && index < end;
      index = text.indexOf("\n", index + 1)
    ) {
      line++;
    }
    return line;
  };
}

/**
 * The index of the first UTF-16 unit that takes the UTF-8 encoding of `text` over `maxBytes`, or
 * -1. Looks at no more than `maxBytes` units, whatever the length of `text`.
 */
export function utf8Overflow(text: string, maxBytes: number): number {
  if (text.length * 3 <= maxBytes) return -1;
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const start = index;
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 3;
    if (bytes > maxBytes) return start;
  }
  return -1;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

// First characters of the lexer's tokens.
const DOCUMENT_MARKER = CST.DOCUMENT.charCodeAt(0);
const FLOW_END_MARKER = CST.FLOW_END.charCodeAt(0);
const SCALAR_MARKER = CST.SCALAR.charCodeAt(0);
const BYTE_ORDER_MARK = 0xfeff;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const EXCLAMATION = 0x21;
const HASH = 0x23;
const PERCENT = 0x25;
const AMPERSAND = 0x26;
const COMMA = 0x2c;
const DASH = 0x2d;
const DOT = 0x2e;
const COLON = 0x3a;
const GREATER_THAN = 0x3e;
const QUESTION = 0x3f;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const PIPE = 0x7c;
const CLOSE_BRACE = 0x7d;

/**
 * Lexes `text` and feeds the tokens to the CST parser one by one, counting nesting on the way, so
 * that a deeply nested document is refused after a few dozen tokens, before yaml's recursive
 * parser and composer descend into it.
 *
 * Flow brackets are counted exactly (quoted scalars, comments and block scalars are single
 * tokens, so a `[` inside them never counts). Block nesting is counted the way yaml's parser
 * indents: by the indentation of each line, including leading `- `, `? ` and `: ` indicators; a
 * collection started in the middle of a line (`a: b: c`, `a: - b`) always counts as one more level.
 * Inside flow collections, `- `, a second `:` or a third node without a separating comma count as
 * one more level each, because yaml nests a block collection for them while it recovers from the
 * error. The count may exceed the true depth; it never falls short of it (a property test checks
 * this against yaml's own parse tree). The exact depth is checked again on the composed document.
 */
function* checkedTokens(text: string, limits: Limits, lines: (offset: number) => number) {
  const parser = new Parser();
  const limit = limits.maxDepth + 2;
  // Block levels open at this point, as 2 × indentation (+1 for a sequence, which may sit at the
  // same indentation as its parent mapping's key and still be nested in it). Never decreasing.
  const levels: number[] = [];
  // Open flow collections, with what the current entry of each holds so far.
  const items: { nodes: number; colons: number }[] = [];
  let recovered = 0;
  let indent = 0;
  let atLineStart = true;
  let lastNodeInLine = false;
  let colonsInLine = 0;
  let scalarNext = false;
  let blockScalarNext = false;
  let offset = 0;

  // Stop at the first sign of trouble in the syntax tree, before the composer sees it: a second
  // document, a syntax error outside any document (yaml would go on collecting thousands), or
  // nesting deeper than the limit.
  let documents = 0;
  const checkToken = (token: CST.Token) => {
    if (token.type === "document" && ++documents > 1) {
      fail(
        "multiple-documents",
        lines(token.offset),
        'the text holds more than one YAML document. Remove the "---" line that starts the second one.',
      );
    }
    if (token.type === "error") {
      fail("syntax", lines(token.offset), syntaxAdvice("UNEXPECTED_TOKEN", token.message));
    }
    checkTreeDepth(token, limits.maxDepth, lines);
  };
  const check = (at: number) => {
    if (levels.length + items.length + recovered > limit) {
      fail(
        "too-deep",
        lines(at),
        `mappings and sequences nest deeper than ${limits.maxDepth} levels. Flatten the structure.`,
      );
    }
  };
  // A block collection may start here. At the start of a line, close the levels indented deeper
  // and open this one unless it continues the last one at the same indentation; in the middle of
  // a line (or for a block scalar at the start of one, which yaml may take for a key whose value
  // is the next line), always open one.
  const open = (at: number, level: number, mode: "line" | "always") => {
    if (atLineStart) {
      while (levels.length > 0 && (levels[levels.length - 1] as number) > level) levels.pop();
    }
    if (mode === "line" && levels.length > 0 && levels[levels.length - 1] === level) return;
    levels.push(Math.max(level, levels[levels.length - 1] ?? 0));
    check(at);
  };
  // A node (scalar, alias, flow collection) starts at `at`.
  const node = (at: number, blockScalar = false) => {
    const item = items[items.length - 1];
    if (item !== undefined) {
      // A second node needs a ":" before it, a third one never fits in an entry.
      if (++item.nodes > 2 || (item.nodes === 2 && item.colons === 0)) {
        recovered++;
        check(at);
      }
    } else if (atLineStart) {
      open(at, indent * 2, blockScalar ? "always" : "line");
      lastNodeInLine = false;
    } else {
      lastNodeInLine = true;
    }
    atLineStart = false;
  };

  // `-`, `?` or `:` at `at`.
  const indicator = (at: number, character: number) => {
    const item = items[items.length - 1];
    if (item !== undefined) {
      // An entry is `[? ] key [: value]`; anything else makes the parser nest.
      const recovering =
        character === DASH ||
        (character === COLON && (++item.colons > 1 || item.nodes > 1)) ||
        (character === QUESTION && (item.nodes > 0 || item.colons > 0));
      if (recovering) {
        recovered++;
        check(at);
      }
    } else if (atLineStart) {
      open(at, indent * 2 + (character === DASH ? 1 : 0), "line");
      indent += 1;
    } else if (character !== COLON || lastNodeInLine || ++colonsInLine > 1) {
      // `a: - b`, `a: b: c`, `a: : b`: a collection that starts in the middle of a line.
      open(at, indent * 2, "always");
      lastNodeInLine = false;
    }
  };
  // `---` or `...`: a document starts or ends.
  const documentMarker = () => {
    levels.length = 0;
    items.length = 0;
    recovered = 0;
    atLineStart = false;
  };

  for (const lexeme of new Lexer().lex(text)) {
    const start = offset;
    // Lexemes are classified by their first character (the lexer's markers are control
    // characters); this loop runs once per token of every document, so it avoids tokenType().
    const first = lexeme.length === 0 ? LINE_FEED : lexeme.charCodeAt(0);
    if (first === SCALAR_MARKER) {
      scalarNext = true;
    } else if (first === FLOW_END_MARKER) {
      // The lexer closed every open flow collection (an error the parser reports).
      items.length = 0;
      recovered = 0;
    } else if (first === DOCUMENT_MARKER) {
      // The start of a document's content: nothing to count.
    } else {
      offset += lexeme.length;
      if (scalarNext) {
        scalarNext = false;
        if (blockScalarNext) {
          // The content lines of `|` or `>`: one token, whatever its indentation.
          blockScalarNext = false;
          if (items.length === 0 && lexeme.charCodeAt(lexeme.length - 1) === LINE_FEED) {
            atLineStart = true;
            indent = 0;
          }
        } else node(start);
      } else {
        switch (first) {
          case LINE_FEED: // also "", the newline the lexer reports at the end of the input
          case CARRIAGE_RETURN:
            if (items.length === 0) {
              atLineStart = true;
              indent = 0;
              colonsInLine = 0;
            }
            break;
          case SPACE:
            if (atLineStart) indent += lexeme.length;
            break;
          case TAB:
          case HASH: // comment
          case AMPERSAND: // anchor
          case EXCLAMATION: // tag
          case PERCENT: // directive line
          case BYTE_ORDER_MARK:
            break;
          case DASH:
          case QUESTION:
          case COLON:
          case DOT:
            if (lexeme.length === 1 && first !== DOT) indicator(start, first);
            else if (lexeme === "---" || lexeme === "...") documentMarker();
            else node(start);
            break;
          case OPEN_BRACE:
          case OPEN_BRACKET:
            node(start);
            items.push({ nodes: 0, colons: 0 });
            check(start);
            break;
          case CLOSE_BRACE:
          case CLOSE_BRACKET:
            items.pop();
            if (items.length === 0) recovered = 0;
            break;
          case COMMA: {
            const item = items[items.length - 1];
            if (item !== undefined) {
              item.nodes = 0;
              item.colons = 0;
            }
            break;
          }
          case PIPE:
          case GREATER_THAN:
            node(start, true);
            blockScalarNext = true;
            break;
          default:
            // Quoted scalars, aliases and anything the lexer could not classify.
            node(start);
        }
      }
    }
    for (const token of parser.next(lexeme)) {
      checkToken(token);
      yield token;
    }
  }
  for (const token of parser.end()) {
    checkToken(token);
    yield token;
  }
}

/**
 * The exact check: the depth of collections in a document's concrete syntax tree, which is what
 * the composer recurses into, walked without recursion. Catches whatever the token count lets
 * through (yaml's parser recovers from some errors by nesting in ways no count of tokens
 * predicts exactly).
 */
function checkTreeDepth(token: CST.Token, maxDepth: number, lines: (offset: number) => number) {
  const pending: [CST.Token | null | undefined, number][] = [[token, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (current === null || current === undefined) continue;
    if (current.type === "document") {
      pending.push([current.value, depth]);
    } else if (
      current.type === "block-map" ||
      current.type === "block-seq" ||
      current.type === "flow-collection"
    ) {
      if (depth + 1 > maxDepth) {
        fail(
          "too-deep",
          lines(current.offset),
          `mappings and sequences nest deeper than ${maxDepth} levels. Flatten the structure.`,
        );
      }
      for (const item of current.items) {
        if ("key" in item) pending.push([item.key, depth + 1]);
        pending.push([item.value, depth + 1]);
      }
    }
  }
}

/** True when a `%YAML` or `%TAG` directive changed how the document is read. */
function hasDirectives(document: Document.Parsed): boolean {
  const { directives } = document;
  if (directives === undefined) return false;
  if (directives.yaml.explicit) return true;
  const handles = Object.entries(directives.tags);
  return handles.some(([handle, prefix]) => handle !== "!!" || prefix !== "tag:yaml.org,2002:");
}

function directiveOffset(text: string): number {
  if (text.startsWith("%")) return 0;
  const index = text.indexOf("\n%");
  return index === -1 ? 0 : index + 1;
}

/** Refuses the YAML features untrusted input may not use: aliases, anchors, explicit tags. */
function refuseProperties(node: Node, path: YamlPath, lines: (offset: number) => number): void {
  const at = () => lines(node.range?.[0] ?? 0);
  if (isAlias(node)) {
    fail(
      "alias",
      at(),
      `aliases (*${node.source}) are not allowed in untrusted YAML. Write the value out in full.`,
      path,
    );
  }
  if (node.anchor) {
    fail(
      "anchor",
      at(),
      `anchors (&${node.anchor}) are not allowed in untrusted YAML. Remove the anchor and write the values out in full.`,
      path,
    );
  }
  if (node.tag) {
    fail(
      "tag",
      at(),
      `explicit tags (${node.tag.replace(/^tag:yaml\.org,2002:/, "!!")}) are not allowed in untrusted YAML. Remove the tag; quote the value if it should be text.`,
      path,
    );
  }
}

/**
 * Converts a composed node to plain values, refusing anchors, aliases, tags and duplicate keys
 * and checking the exact depth. Keys are checked with a hash lookup (linear), and set with
 * `defineProperty` so that `__proto__` stays an ordinary own key.
 */
function toPlain(
  node: Node | null,
  path: (string | number)[],
  depth: number,
  limits: Limits,
  lines: (offset: number) => number,
): unknown {
  if (node === null) return null;
  refuseProperties(node, path, lines);
  if (isScalar(node)) return node.value;
  if (depth + 1 > limits.maxDepth) {
    fail(
      "too-deep",
      lines(node.range?.[0] ?? 0),
      `mappings and sequences nest deeper than ${limits.maxDepth} levels. Flatten the structure.`,
      path,
    );
  }
  if (isSeq(node)) {
    const array: unknown[] = [];
    for (let index = 0; index < node.items.length; index++) {
      path.push(index);
      array.push(toPlain(node.items[index] as Node | null, path, depth + 1, limits, lines));
      path.pop();
    }
    return array;
  }
  if (isMap(node)) {
    const object: Record<string, unknown> = {};
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      // With stringKeys, every key that gets here is a string scalar (others are errors).
      const key = isScalar(keyNode) ? String(keyNode.value) : "";
      path.push(key);
      if (keyNode !== null) refuseProperties(keyNode, path, lines);
      if (Object.hasOwn(object, key)) {
        fail(
          "duplicate-key",
          lines(keyNode?.range?.[0] ?? node.range?.[0] ?? 0),
          `the key ${JSON.stringify(key)} appears more than once in the same mapping. Keep only one of them.`,
          path,
        );
      }
      Object.defineProperty(object, key, {
        value: toPlain(pair.value as Node | null, path, depth + 1, limits, lines),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      path.pop();
    }
    return object;
  }
  // Pairs and other node types cannot be values of a composed document.
  return fail(
    "syntax",
    lines(node.range?.[0] ?? 0),
    "unsupported YAML node. Use plain mappings, sequences and scalars.",
    path,
  );
}

function lineOfPath(
  root: Node | null,
  path: YamlPath,
  lines: (offset: number) => number,
): number | undefined {
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
    } else if (isSeq(node) && typeof segment === "number") {
      const item = node.items[segment] as Node | undefined;
      if (item === undefined) break;
      offset = item.range?.[0];
      node = item;
    } else break;
  }
  return offset === undefined ? undefined : lines(offset);
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

function syntaxAdvice(code: string, message: string): string {
  const text = message.replace(/\s+$/, "").replace(/\.$/, "");
  const advice =
    ADVICE[code] ??
    'Check the indentation and quoting on this line; quote values that contain ": ", " #" or start with a special character ([ { & * ! | > \' " % @ `).';
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}. ${advice}`;
}
