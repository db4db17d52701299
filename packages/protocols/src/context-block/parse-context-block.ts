import { ArgumentError, approximateTokenizer, type Tokenizer } from "@task-context/core";
import { InvalidYamlError } from "../errors/invalid-yaml-error.ts";
import { type ContextBlock, contextBlockSchema } from "../schemas/context-block.ts";
import {
  type ContextBlockIssue,
  describeSchemaIssues,
  describeValue,
  reservedKeyIssues,
} from "./context-block-issue.ts";
import {
  type ParseUntrustedYamlOptions,
  parseUntrustedYamlDocument,
  resolveLimits,
  type UntrustedYamlDocument,
} from "./safe-yaml.ts";

/** The Context Protocol version this package reads and writes. */
export const CONTEXT_BLOCK_VERSION = 1;

/** Spec 004: a `conventions.summary` should stay under this many tokens ("max 200 tokens"). */
export const SUMMARY_MAX_TOKENS = 200;

/** Spec 004's target length of `conventions.summary`, quoted in warnings. */
export const SUMMARY_TARGET_TOKENS = "50-100";

/** What {@link parseContextBlock} found at the start of the prompt. */
export type ContextBlockStatus =
  /** A valid v1 block: use it and skip reading project files. */
  | "found"
  /** No `<context>` block at the start of the prompt: read the project files. */
  | "missing"
  /** A block with a `version` other than 1: read the project files (spec 004, "Versioning"). */
  | "unsupported-version"
  /** A block that is not valid YAML or does not match the v1 schema: see `issues`. */
  | "invalid";

/** The result of {@link parseContextBlock}. */
export interface ParsedContextBlock {
  status: ContextBlockStatus;
  /** The validated block when `status` is `"found"` (a missing `version` is filled in as 1). */
  block: ContextBlock | undefined;
  /**
   * The prompt after the block and its closing fence, leading blank lines removed: the request
   * itself. The whole prompt when no block was found or the block is not closed.
   */
  rest: string;
  /** Why the block is invalid or unsupported; lines are lines of the prompt. */
  issues: ContextBlockIssue[];
  /** Things worth telling the sender that do not stop the block being used. */
  warnings: string[];
}

/** Options for {@link parseContextBlock}. */
export interface ParseContextBlockOptions {
  /** Counts the tokens of `conventions.summary` for the 200-token check (default: approximate). */
  tokenizer?: Tokenizer;
  /** Largest accepted YAML body in UTF-8 bytes (default 65 536). */
  maxBytes?: number;
  /** Deepest accepted nesting in the YAML body (default 32). */
  maxDepth?: number;
}

const OPEN_TAG = "<context>";
const CLOSE_TAG = "</context>";
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const TAB = 9;
const BACKTICK = 96;
const TILDE = 126;

interface Fence {
  character: number;
  length: number;
}

/**
 * Finds and validates a Context Protocol v1 block (spec 004) at the start of a subagent prompt.
 *
 * The block is a `<context>` line, YAML, and a line that is exactly `</context>`, either bare or
 * inside a fenced code block (```` ```yaml ````, ```` ```markdown ````, ```` ``` ````, `~~~`)
 * as in the spec's examples; only whitespace may come before it. The YAML is parsed as untrusted
 * input (see {@link parseUntrustedYaml}) and checked against {@link contextBlockSchema}.
 *
 * Versions (spec 004, "Versioning"): a block without `version` (or with an empty one) is v1;
 * `version: 1` (also written `1.0`, the same YAML number) is v1; any other value — `2`, `1.1`, or
 * the text `"1"`, which is not the number the spec defines — is `"unsupported-version"`, and the
 * caller falls back to reading the project files.
 *
 * Never throws for a string prompt: every problem becomes `status` and `issues`. (It throws
 * `ArgumentError` for a prompt that is not a string or limits that are not whole numbers,
 * and passes on a runtime permission error as is; see {@link parseUntrustedYaml}.)
 *
 * @example
 * ```ts
 * const { status, block, rest } = parseContextBlock(prompt);
 * if (status === "found") {
 *   console.log(block.project.stack, block.conventions.summary);
 * }
 * await runSubagent(rest);
 * ```
 */
export function parseContextBlock(
  prompt: string,
  options: ParseContextBlockOptions = {},
): ParsedContextBlock {
  if (typeof prompt !== "string") {
    throw new ArgumentError({
      argument: "prompt",
      message: `expected a string, got ${typeof prompt}.`,
    });
  }
  const yamlOptions: ParseUntrustedYamlOptions = {};
  if (options.maxBytes !== undefined) yamlOptions.maxBytes = options.maxBytes;
  if (options.maxDepth !== undefined) yamlOptions.maxDepth = options.maxDepth;
  // Bad limits are a programming error: refuse them whatever the prompt holds.
  const { maxBytes } = resolveLimits(yamlOptions);

  const missing: ParsedContextBlock = {
    status: "missing",
    block: undefined,
    rest: prompt,
    issues: [],
    warnings: [],
  };

  // 1. Where the block would start: after leading whitespace, maybe after an opening fence.
  let cursor = firstNonWhitespace(prompt, 0);
  let fence: Fence | undefined;
  const opening = readFenceOpening(prompt, cursor);
  if (opening !== undefined) {
    fence = opening.fence;
    cursor = firstNonWhitespace(prompt, opening.next);
  }
  if (!prompt.startsWith(OPEN_TAG, cursor)) return missing;
  const openLineEnd = lineEnd(prompt, cursor + OPEN_TAG.length);
  const openLine = lineNumberAt(prompt, cursor);
  if (!isBlank(prompt, cursor + OPEN_TAG.length, openLineEnd)) {
    return invalid(prompt, [
      {
        path: "",
        message:
          "<context> must be alone on its line, with the YAML on the lines after it and </context> alone on a line after the YAML.",
        line: openLine,
      },
    ]);
  }

  // 2. The closing line: exactly `</context>` (trailing whitespace allowed). The YAML between
  //    can be no longer than maxBytes, so only that much of the prompt is searched.
  const bodyStart = Math.min(openLineEnd + 1, prompt.length);
  const close = findClosingLine(prompt, bodyStart, bodyStart + maxBytes + CLOSE_TAG.length + 2);
  if (close === -1) {
    const tooLong = prompt.length - bodyStart > maxBytes;
    return invalid(prompt, [
      {
        path: "",
        message: tooLong
          ? `The <context> block has no closing </context> line within ${maxBytes} bytes: it is not closed, or too large. Close it with a line containing only </context>, and keep it short.`
          : "The <context> block is not closed. Add a line containing only </context> after the YAML.",
        line: openLine,
      },
    ]);
  }
  const afterClose = Math.min(lineEnd(prompt, close + CLOSE_TAG.length) + 1, prompt.length);
  const rest = restAfterBlock(prompt, afterClose, fence);

  // 3. The YAML.
  const body = prompt.slice(bodyStart, close);
  let document: UntrustedYamlDocument;
  try {
    document = parseUntrustedYamlDocument(body, {
      ...yamlOptions,
      firstLine: lineNumberAt(prompt, bodyStart),
    });
  } catch (error) {
    if (!InvalidYamlError.isInstance(error)) throw error;
    return invalid(rest, [
      { path: error.path ?? "", message: capitalize(error.detail), line: error.line },
    ]);
  }
  const { value, lineOf } = document;
  const warnings = document.warnings.map((warning) => `YAML warning at ${warning}`);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return invalid(rest, [
      {
        path: "",
        message: `The <context> block must be a YAML mapping with version, project and conventions, not ${describeValue(value)}.`,
        line: openLine,
      },
    ]);
  }

  // 4. The version.
  const fields = value as Record<string, unknown>;
  const version = Object.hasOwn(fields, "version") ? fields.version : undefined;
  if (version !== undefined && version !== null && version !== CONTEXT_BLOCK_VERSION) {
    const line = lineOf(["version"]);
    const message =
      typeof version === "string" && Number(version) === CONTEXT_BLOCK_VERSION
        ? `version is the text ${JSON.stringify(version)}, not the number 1, so this block is treated as an unsupported version and the project files are read instead. Write "version: 1" without quotes.`
        : `Context Protocol version ${describeValue(version).replace(/^the (number|text|boolean) /, "")} is not supported (this receiver understands version 1), so the block is ignored and the project files are read instead. Send "version: 1" to be understood.`;
    return {
      status: "unsupported-version",
      block: undefined,
      rest,
      issues: [
        line === undefined ? { path: "/version", message } : { path: "/version", message, line },
      ],
      warnings,
    };
  }

  // 5. The schema.
  const candidate =
    version === CONTEXT_BLOCK_VERSION ? fields : { ...fields, version: CONTEXT_BLOCK_VERSION };
  const reserved = reservedKeyIssues(candidate, lineOf);
  const result = contextBlockSchema.safeParse(candidate);
  if (!result.success || reserved.length > 0) {
    const issues = result.success
      ? []
      : describeSchemaIssues(candidate, result.error.issues, lineOf);
    return {
      status: "invalid",
      block: undefined,
      rest,
      issues: [...issues, ...reserved],
      warnings,
    };
  }
  const block = result.data;

  // 6. The summary budget.
  const summaryWarning = summaryTokenWarning(block.conventions.summary, options.tokenizer);
  if (summaryWarning !== undefined) warnings.push(summaryWarning);
  return { status: "found", block, rest, issues: [], warnings };
}

function invalid(rest: string, issues: ContextBlockIssue[]): ParsedContextBlock {
  return { status: "invalid", block: undefined, rest, issues, warnings: [] };
}

function capitalize(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** A warning when the summary is over spec 004's 200-token maximum, else undefined. */
function summaryTokenWarning(summary: string, tokenizer: Tokenizer = approximateTokenizer) {
  // Most summaries are far below the limit: a cheap bound spares the approximate count.
  if (
    tokenizer === approximateTokenizer &&
    approximateTokenUpperBound(summary) <= SUMMARY_MAX_TOKENS
  ) {
    return undefined;
  }
  const tokens = tokenizer.count(summary);
  if (tokens <= SUMMARY_MAX_TOKENS) return undefined;
  return `conventions.summary is ${tokens} tokens (${tokenizer.name} count), over Context Protocol v1's maximum of ${SUMMARY_MAX_TOKENS}; the target is ${SUMMARY_TARGET_TOKENS} tokens. Keep the conventions that matter for this task and leave the rest to conventions.fullPath.`;
}

/**
 * An upper bound of `approximateTokenizer.count(text)` in one pass over the UTF-16 units: a run
 * of ASCII letters costs what the approximate tokenizer charges for a Latin word (or a quarter
 * token per letter after a non-ASCII letter), a single space nothing, a run of spaces or of line
 * feeds one, and any other unit one (the approximate tokenizer never charges more than one token
 * per unit). A property test checks the bound against the tokenizer on random text.
 */
export function approximateTokenUpperBound(text: string): number {
  let bound = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) {
      const start = index;
      let next = code;
      do next = text.charCodeAt(++index);
      while ((next >= 65 && next <= 90) || (next >= 97 && next <= 122));
      const length = index - start;
      // After a non-ASCII letter ("éword") the run is part of one letter piece, priced at a
      // token per four letters; the letters before it were already counted one each.
      bound +=
        text.charCodeAt(start - 1) >= 0x80 ? Math.ceil(length / 4) : 1 + Math.floor(length / 9);
    } else if (code === SPACE || code === TAB || code === CARRIAGE_RETURN) {
      const start = index;
      let next = code;
      do next = text.charCodeAt(++index);
      while (next === SPACE || next === TAB || next === CARRIAGE_RETURN);
      if (index - start > 1) bound++;
    } else if (code === NEWLINE) {
      do index++;
      while (text.charCodeAt(index) === NEWLINE);
      bound++;
    } else {
      bound++;
      index++;
    }
  }
  return bound;
}

function isWhitespace(code: number): boolean {
  return (
    code === SPACE ||
    (code >= TAB && code <= CARRIAGE_RETURN) ||
    code === 0xa0 ||
    code === 0xfeff ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

function firstNonWhitespace(text: string, from: number): number {
  let index = from;
  while (index < text.length && isWhitespace(text.charCodeAt(index))) index++;
  return index;
}

/** The index of the line feed that ends the line containing `from`, or the text's length. */
function lineEnd(text: string, from: number): number {
  const index = text.indexOf("\n", from);
  return index === -1 ? text.length : index;
}

/** True when `text[from, to)` holds only spaces, tabs and carriage returns. */
function isBlank(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code !== SPACE && code !== TAB && code !== CARRIAGE_RETURN) return false;
  }
  return true;
}

function lineNumberAt(text: string, offset: number): number {
  let line = 1;
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < offset;
    index = text.indexOf("\n", index + 1)
  ) {
    line++;
  }
  return line;
}

/** An opening code fence (three or more backticks or tildes, any info string) at `at`. */
function readFenceOpening(text: string, at: number): { fence: Fence; next: number } | undefined {
  const character = text.charCodeAt(at);
  if (character !== BACKTICK && character !== TILDE) return undefined;
  let index = at;
  while (text.charCodeAt(index) === character) index++;
  const length = index - at;
  if (length < 3) return undefined;
  const end = lineEnd(text, index);
  // CommonMark: the info string of a backtick fence may not contain backticks.
  if (character === BACKTICK && text.slice(index, end).includes("`")) return undefined;
  return { fence: { character, length }, next: end };
}

/** True when `text[from, to)` is a closing fence for `fence` (up to three spaces of indentation). */
function isClosingFence(text: string, from: number, to: number, fence: Fence): boolean {
  let index = from;
  while (index < to && index - from < 3 && text.charCodeAt(index) === SPACE) index++;
  const start = index;
  while (index < to && text.charCodeAt(index) === fence.character) index++;
  return index - start >= fence.length && isBlank(text, index, to);
}

/** The start of the first line in `[from, limit)` that is exactly `</context>`, or -1. */
function findClosingLine(text: string, from: number, limit: number): number {
  // Search a bounded window, so a huge prompt without a closing line costs no more than the cap.
  const window = text.slice(from, Math.min(limit, text.length));
  const next = (after: number) => {
    const index = window.indexOf(`\n${CLOSE_TAG}`, after);
    return index === -1 ? -1 : index + 1;
  };
  for (let index = window.startsWith(CLOSE_TAG) ? 0 : next(0); index !== -1; index = next(index)) {
    const start = from + index;
    const tagEnd = start + CLOSE_TAG.length;
    if (isBlank(text, tagEnd, lineEnd(text, tagEnd))) return start;
  }
  return -1;
}

/**
 * The request after the block. With a fence: when the fence closes right after the block (spec's
 * first example), the text after the closing fence; when the fence wraps the request too (spec's
 * "Builder Delegating to Developer" example), the text up to a closing fence on the last line.
 */
function restAfterBlock(text: string, from: number, fence: Fence | undefined): string {
  if (fence === undefined) return withoutLeadingBlankLines(text, from, text.length);
  const next = firstNonWhitespace(text, from);
  const nextLineStart = text.lastIndexOf("\n", next - 1) + 1;
  const nextLineEnd = lineEnd(text, next);
  if (
    next < text.length &&
    isClosingFence(text, Math.max(nextLineStart, from), nextLineEnd, fence)
  ) {
    return withoutLeadingBlankLines(text, Math.min(nextLineEnd + 1, text.length), text.length);
  }
  let end = text.length;
  while (end > from && isWhitespace(text.charCodeAt(end - 1))) end--;
  const lastLineStart = Math.max(text.lastIndexOf("\n", end - 1) + 1, from);
  if (end > from && isClosingFence(text, lastLineStart, end, fence)) {
    let contentEnd = lastLineStart;
    if (text.charCodeAt(contentEnd - 1) === NEWLINE) contentEnd--;
    if (text.charCodeAt(contentEnd - 1) === CARRIAGE_RETURN) contentEnd--;
    return withoutLeadingBlankLines(text, from, Math.max(contentEnd, from));
  }
  return withoutLeadingBlankLines(text, from, text.length);
}

/** `text[from, to)` without the whitespace-only lines at its start. */
function withoutLeadingBlankLines(text: string, from: number, to: number): string {
  const first = firstNonWhitespace(text, from);
  if (first >= to) return "";
  const lineStart = text.lastIndexOf("\n", first - 1) + 1;
  return text.slice(Math.max(lineStart, from), to);
}
