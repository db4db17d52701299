import { approximateTokenizer, type Tokenizer } from "@task-context/core";
import {
  lineNumberAt,
  requireObject,
  requireString,
  requireTokenizer,
  requireWholeNumber,
} from "@task-context/core/internal";
import { InvalidYamlError } from "../errors/invalid-yaml-error.ts";
import { type ContextBlock, contextBlockSchema } from "../schemas/context-block.ts";
import {
  checkValue,
  describeValue,
  fromJsonPointer,
  type ValidationIssue,
} from "../validate/issues.ts";
import { parseUntrustedYaml, type UntrustedYaml } from "./safe-yaml.ts";

/** One problem with a context block (or with a fallback file), readable by people and models. */
export interface ContextBlockIssue extends ValidationIssue {
  /** 1-based line in the prompt (or in `file`), when known. */
  line?: number;
  /** The workspace file the issue is about, for fallback files (`docs/project.json`). */
  file?: string;
}

/**
 * What {@link parseContextBlock} found at the start of a prompt: `"found"`, a valid v1 block (use
 * it and skip reading the project files); `"missing"`, no block; `"invalid"`, a block that is not
 * valid YAML or not a v1 block; `"unsupported-version"`, a `version` other than 1. In the last
 * three cases, read the project files; `issues` says why.
 */
export type ParsedContextBlock =
  | { status: "found"; block: ContextBlock; request: string; warning?: string }
  | { status: "missing"; request: string }
  | {
      status: "invalid" | "unsupported-version";
      issues: ContextBlockIssue[];
      request: string;
      warning?: string;
    };

/** `"found"`, `"missing"`, `"invalid"` or `"unsupported-version"`. */
export type ContextBlockStatus = ParsedContextBlock["status"];

/** Options for {@link parseContextBlock}. */
export interface ParseContextBlockOptions {
  /** Counts the tokens of `conventions.summary` for the 200-token check (default: core's approximate tokenizer). */
  tokenizer?: Tokenizer | undefined;
  /** Largest accepted YAML body in UTF-8 bytes (default 65 536). */
  maxBytes?: number | undefined;
  /** Deepest accepted nesting in the YAML body (default 32). */
  maxDepth?: number | undefined;
}

/** Context Protocol v1: a `conventions.summary` should stay under 200 tokens, 50-100 ideally. */
const SUMMARY_MAX_TOKENS = 200;
const OPEN_TAG = "<context>";
const CLOSE_TAG = "</context>";
const WHITESPACE = /\s*/y;
const BLANK_TO_LINE_END = /[ \t\r]*(?:\n|$)/y;
// An opening code fence: three or more backticks (whose info string has none) or tildes.
const FENCE = /(`{3,})[^`\n]*(?=\n|$)|(~{3,})[^\n]*(?=\n|$)/y;

/**
 * Finds and checks a Context Protocol v1 block at the start of a subagent prompt.
 *
 * The block is a `<context>` line, YAML, and a line that is exactly `</context>`, bare or inside
 * a fenced code block (```` ```yaml ````, ```` ```markdown ````, `~~~`); only whitespace may come
 * before it. The YAML is parsed as untrusted input — at most `maxBytes`, nested at most
 * `maxDepth` deep, no aliases, anchors, tags or duplicate keys — and checked against
 * {@link contextBlockSchema}. A block without `version` is version 1; any version other than the
 * number 1 is `"unsupported-version"`, and the receiver falls back to the project files.
 *
 * Never throws for a string prompt: every problem becomes `status` and `issues`, with the line
 * of the prompt. See https://github.com/task-context/task-context/blob/main/docs/context-protocol.md.
 *
 * @throws {ArgumentError} when `prompt` is not a string or an option has the wrong type.
 *
 * @example
 * ```ts source="../../examples/parse-context-block.ts"
 * import { parseContextBlock } from "@task-context/protocols/context-block";
 *
 * const parsed = parseContextBlock(
 *   "<context>\nproject:\n  path: /srv/app\n  stack: hono\nconventions:\n  summary: ESM only.\n</context>\n\nAdd a health route.",
 * );
 * switch (parsed.status) {
 *   case "found":
 *     console.log(parsed.block.project.stack, parsed.request); // "hono" "Add a health route."
 *     break;
 *   case "missing":
 *     console.log("no block: read docs/project.json and docs/CONVENTIONS.md");
 *     break;
 *   default: // "invalid" or "unsupported-version"
 *     for (const issue of parsed.issues) console.log(issue.line, issue.path, issue.message);
 * }
 * ```
 */
export function parseContextBlock(
  prompt: string,
  options: ParseContextBlockOptions = {},
): ParsedContextBlock {
  requireString("prompt", prompt);
  requireObject("options", options);
  // Only an absent option takes its default: null is refused like any other wrong type.
  const { maxBytes = 64 * 1024, maxDepth = 32, tokenizer = approximateTokenizer } = options;
  requireWholeNumber("maxBytes", maxBytes, 1);
  requireWholeNumber("maxDepth", maxDepth, 1);
  requireTokenizer("tokenizer", tokenizer);

  // 1. The opening: whitespace, maybe a fence line and more whitespace, then `<context>` alone.
  let cursor = skipWhitespace(prompt, 0);
  FENCE.lastIndex = cursor;
  const fenceMatch = FENCE.exec(prompt);
  const fence = fenceMatch === null ? undefined : (fenceMatch[1] ?? fenceMatch[2]);
  if (fenceMatch !== null) cursor = skipWhitespace(prompt, FENCE.lastIndex);
  if (!prompt.startsWith(OPEN_TAG, cursor)) return { status: "missing", request: prompt };
  const openLine = lineNumberAt(prompt, cursor);
  const invalid = (request: string, message: string, line = openLine): ParsedContextBlock => ({
    status: "invalid",
    issues: [{ path: "", message, line }],
    request,
  });
  BLANK_TO_LINE_END.lastIndex = cursor + OPEN_TAG.length;
  if (!BLANK_TO_LINE_END.test(prompt)) {
    return invalid(
      prompt,
      `${OPEN_TAG} must be alone on its line, with the YAML on the lines after it and ${CLOSE_TAG} alone on a line after the YAML.`,
    );
  }

  // 2. The closing line, searched no further than the largest body allowed.
  const bodyStart = BLANK_TO_LINE_END.lastIndex;
  const close = findClosingLine(prompt, bodyStart, bodyStart + maxBytes + CLOSE_TAG.length + 2);
  if (close === -1) {
    return invalid(
      prompt,
      prompt.length - bodyStart > maxBytes
        ? `The ${OPEN_TAG} block has no closing ${CLOSE_TAG} line within ${maxBytes} bytes: it is not closed, or too large. Close it with a line containing only ${CLOSE_TAG}, and keep it short.`
        : `The ${OPEN_TAG} block is not closed. Add a line containing only ${CLOSE_TAG} after the YAML.`,
    );
  }
  BLANK_TO_LINE_END.lastIndex = close + CLOSE_TAG.length;
  BLANK_TO_LINE_END.test(prompt);
  const request = requestAfter(prompt, BLANK_TO_LINE_END.lastIndex, fence);

  // 3. The YAML.
  const firstLine = lineNumberAt(prompt, bodyStart);
  let yaml: UntrustedYaml;
  try {
    yaml = parseUntrustedYaml(prompt.slice(bodyStart, close), { maxBytes, maxDepth, firstLine });
  } catch (error) {
    if (!InvalidYamlError.isInstance(error)) throw error;
    const message = `${error.detail.charAt(0).toUpperCase()}${error.detail.slice(1)}`;
    const issue: ContextBlockIssue = { path: error.path ?? "", message, line: error.line };
    return { status: "invalid", issues: [issue], request };
  }
  const notes = yaml.warnings.map((warning) => `YAML warning at ${warning}.`);
  const withWarning = <Result extends ParsedContextBlock>(result: Result): Result =>
    notes.length === 0 ? result : { ...result, warning: notes.join(" ") };
  const { value } = yaml;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const not = `not ${describeValue(value, { yaml: true })}`;
    const message = `The ${OPEN_TAG} block must be a YAML mapping with version, project and conventions, ${not}.`;
    return withWarning(invalid(request, message));
  }

  // 4. The version: missing is 1, anything but the number 1 is unsupported.
  const { version } = value as { version?: unknown };
  if (version !== undefined && version !== null && version !== 1) {
    const message =
      typeof version === "string" && Number(version) === 1
        ? `version is the text ${JSON.stringify(version)}, not the number 1, so this block is treated as an unsupported version and the project files are read instead. Write "version: 1" without quotes.`
        : `Context Protocol version ${describeValue(version, { yaml: true }).replace(/^the (number|text|boolean) /, "")} is not supported (this receiver understands version 1), so the block is ignored and the project files are read instead. Send "version: 1" to be understood.`;
    const issues = [located({ path: "/version", message }, yaml)];
    return withWarning({ status: "unsupported-version", issues, request });
  }

  // 5. The schema.
  const candidate = { ...value, version: 1 };
  const checked = checkValue(contextBlockSchema, candidate, { yaml: true, root: "the block" });
  if (!checked.valid) {
    const issues = checked.issues.map((issue) => located(issue, yaml));
    return withWarning({ status: "invalid", issues, request });
  }
  const block = checked.data;

  // 6. The summary's length.
  const tokens = tokenizer.count(block.conventions.summary);
  if (tokens > SUMMARY_MAX_TOKENS) {
    notes.push(
      `conventions.summary is ${tokens} tokens (${tokenizer.name} count), over Context Protocol v1's maximum of ${SUMMARY_MAX_TOKENS}; the target is 50-100 tokens. Keep the conventions that matter for this task and leave the rest to conventions.fullPath.`,
    );
  }
  return withWarning({ status: "found", block, request });
}

/** The issue with the prompt line of the YAML node it is about, when there is one. */
function located(issue: ValidationIssue, yaml: UntrustedYaml): ContextBlockIssue {
  const line = yaml.lineOf(fromJsonPointer(issue.path));
  return line === undefined ? issue : { ...issue, line };
}

function skipWhitespace(text: string, from: number): number {
  WHITESPACE.lastIndex = from;
  WHITESPACE.test(text);
  return WHITESPACE.lastIndex;
}

/** The first line in `[from, limit)` that is `</context>`, or -1: a huge prompt costs no more. */
function findClosingLine(text: string, from: number, limit: number): number {
  const window = text.slice(from, Math.min(limit, text.length));
  const next = (after: number) => {
    const index = window.indexOf(`\n${CLOSE_TAG}`, after);
    return index === -1 ? -1 : index + 1;
  };
  for (let index = window.startsWith(CLOSE_TAG) ? 0 : next(0); index !== -1; index = next(index)) {
    BLANK_TO_LINE_END.lastIndex = from + index + CLOSE_TAG.length;
    if (BLANK_TO_LINE_END.test(text)) return from + index;
  }
  return -1;
}

/**
 * The request after the block, without its leading blank lines. In a fence that closes right
 * after the block, the text after the closing fence; in a fence that wraps the request too (as in
 * the protocol's "Builder Delegating to Developer" example), the text before a closing fence on
 * its last line.
 */
function requestAfter(text: string, from: number, fence: string | undefined): string {
  const rest = text.slice(from);
  if (fence === undefined) return withoutLeadingBlankLines(rest);
  const closing = new RegExp(`^ {0,3}${fence[0]}{${fence.length},}[ \\t\\r]*$`);
  const lines = rest.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first !== -1 && closing.test(lines[first] as string)) {
    return withoutLeadingBlankLines(lines.slice(first + 1).join("\n"));
  }
  const last = lines.findLastIndex((line) => line.trim() !== "");
  if (last !== -1 && closing.test(lines[last] as string)) {
    return withoutLeadingBlankLines(lines.slice(0, last).join("\n").replace(/\r$/, ""));
  }
  return withoutLeadingBlankLines(rest);
}

/** `text` without the whitespace-only lines at its start; "" when it is all whitespace. */
function withoutLeadingBlankLines(text: string): string {
  return text.trim() === "" ? "" : text.replace(/^(?:[^\S\n]*\n)*/, "");
}
