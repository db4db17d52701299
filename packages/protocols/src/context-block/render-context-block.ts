import { InvalidContextBlockError } from "../errors/invalid-context-block-error.ts";
import { type ContextBlock, contextBlockSchema } from "../schemas/context-block.ts";
import { describeSchemaIssues, reservedKeyIssues } from "./context-block-issue.ts";

/**
 * Writes a Context Protocol v1 block in its canonical form: the spec's layout and field order
 * (`version`, `project.path|stack|commands`, `conventions.summary|fullPath`,
 * `currentWork.prd|story|branch`), two-space indentation, a `|` block scalar for multi-line text
 * (as the spec writes `conventions.summary`), plain scalars where YAML reads them back as the same
 * text, and quotes everywhere else (`yes`, `null`, `1.0`, `: `, ` #`, leading `-`, `[`, `*`, …).
 *
 * The output starts with `<context>` and ends with `</context>` (no trailing newline): prepend it
 * to a prompt with a blank line between. No line of the YAML is ever exactly `</context>` (text
 * lines of block scalars are indented; other values are on their key's line), so
 * {@link parseContextBlock} finds the end unambiguously, and
 * `parseContextBlock(renderContextBlock(block) + "\n\n" + prompt)` gives back `block` and `prompt`.
 *
 * Text YAML cannot hold literally — control characters, U+FEFF, U+2028/2029, lone surrogates —
 * is written as escapes in a double-quoted string (`"\uD800"`), which read back as the same
 * UTF-16 string.
 *
 * @throws {InvalidContextBlockError} when `block` does not match {@link contextBlockSchema}.
 *
 * @example
 * ```ts
 * const prompt = `${renderContextBlock({
 *   version: 1,
 *   project: { path: "/Users/dev/code/my-app", stack: "nextjs-prisma", commands: { test: "npm test" } },
 *   conventions: { summary: "TypeScript strict mode.\nZod for validation.\n" },
 * })}\n\nImplement US-003: Add print preview modal`;
 * ```
 */
export function renderContextBlock(block: ContextBlock): string {
  const result = contextBlockSchema.safeParse(block);
  const reserved = reservedKeyIssues(block);
  if (!result.success || reserved.length > 0) {
    const issues = result.success ? [] : describeSchemaIssues(block, result.error.issues);
    throw new InvalidContextBlockError({ issues: [...issues, ...reserved] });
  }
  const { project, conventions, currentWork } = result.data;
  const lines = ["<context>", "version: 1", "project:"];
  entry(lines, 1, "path", project.path);
  entry(lines, 1, "stack", project.stack);
  if (project.commands !== undefined) {
    const commands = Object.entries(project.commands);
    if (commands.length === 0) lines.push("  commands: {}");
    else {
      lines.push("  commands:");
      for (const [name, command] of commands) entry(lines, 2, name, command);
    }
  }
  lines.push("conventions:");
  entry(lines, 1, "summary", conventions.summary);
  if (conventions.fullPath !== undefined) entry(lines, 1, "fullPath", conventions.fullPath);
  if (currentWork !== undefined) {
    const fields = (["prd", "story", "branch"] as const).filter(
      (field) => currentWork[field] !== undefined,
    );
    if (fields.length === 0) lines.push("currentWork: {}");
    else {
      lines.push("currentWork:");
      for (const field of fields) entry(lines, 1, field, currentWork[field] as string);
    }
  }
  lines.push("</context>");
  return lines.join("\n");
}

// YAML keys longer than this (as written) use the explicit `? key` form: an implicit key must
// end within 1024 characters.
const MAX_IMPLICIT_KEY = 1000;

/** Appends `key: value` at `level` (two spaces each), in the first style that is safe. */
function entry(lines: string[], level: number, key: string, value: string): void {
  const indent = "  ".repeat(level);
  const writtenKey = renderKey(key);
  const block = blockScalar(value, `${indent}  `);
  const written = block ?? renderScalar(value);
  if (writtenKey.length > MAX_IMPLICIT_KEY) {
    lines.push(`${indent}? ${writtenKey}`, `${indent}: ${written}`);
  } else {
    lines.push(`${indent}${writtenKey}: ${written}`);
  }
}

function renderKey(key: string): string {
  return isPlainSafe(key) && !key.includes(":") ? key : renderQuoted(key);
}

function renderScalar(value: string): string {
  return isPlainSafe(value) ? value : renderQuoted(value);
}

function renderQuoted(value: string): string {
  return hasOnlyPrintable(value, false) ? `'${value.replaceAll("'", "''")}'` : doubleQuoted(value);
}

// Words YAML 1.2 or 1.1 parsers read as null, booleans or merge keys.
const KEYWORD = /^(?:~|null|true|false|yes|no|on|off|y|n|<<|=)$/i;
// Anything that starts like a number (1, -1, .5, 1.0, 0x1F, 0o17, 1e3, 12:30) or is .inf/.nan.
const NUMBER_LIKE = /^[-+]?\.?[0-9]|^[-+]?\.(?:inf|nan)$/i;
// Characters that start YAML syntax when they come first.
const INDICATOR_FIRST = /^[-?:,[\]{}#&*!|>'"%@`]/;

/**
 * True when `value` can be written unquoted and reads back as the same string. Deliberately
 * stricter than YAML requires: plain only for text that looks like a name, path or command.
 */
function isPlainSafe(value: string): boolean {
  if (value.length === 0) return false;
  if (!hasOnlyPrintable(value, false)) return false;
  if (/^\s|\s$/.test(value)) return false;
  if (INDICATOR_FIRST.test(value) || KEYWORD.test(value) || NUMBER_LIKE.test(value)) return false;
  if (value.includes(": ") || value.includes(" #") || value.endsWith(":")) return false;
  if (/[[\]{},\t]/.test(value)) return false;
  if (value.startsWith("---") || value.startsWith("...")) return false;
  return true;
}

/**
 * True when every character is one YAML can hold literally in any scalar: printable, no line
 * breaks (unless `newlines`), no tabs, no byte order mark, no U+2028/2029, no lone surrogates.
 */
function hasOnlyPrintable(value: string, newlines: boolean): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 0x20 && code < 0x7f) continue;
    if (code === 10 && newlines) continue;
    if (code < 0xa0) return false; // C0 and C1 controls, DEL, NEL (U+0085)
    if (code === 0x2028 || code === 0x2029 || code === 0xfeff || code >= 0xfffe) return false;
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      index++;
    } else if (code >= 0xdc00 && code <= 0xdfff) return false;
  }
  return true;
}

/**
 * A literal block scalar (`|`, `|-` or `|+` by the trailing line breaks) with text lines at
 * `indent`, when `value` is multi-line text that it holds exactly; otherwise undefined.
 */
function blockScalar(value: string, indent: string): string | undefined {
  if (!value.includes("\n") || !hasOnlyPrintable(value, true)) return undefined;
  const lines = value.split("\n");
  let trailing = 0;
  while (trailing < lines.length && lines[lines.length - 1 - trailing] === "") trailing++;
  // `trailing` counts the empty strings after the last line break: 1 means one final newline.
  const content = lines.slice(0, lines.length - trailing);
  const first = content.findIndex((line) => line.trim() !== "");
  if (first === -1) return undefined;
  // Lines before the first text line must be empty (their spaces would set the indentation),
  // the first text line may not start with a space (it sets the indentation), and the last line
  // may not be spaces only (it would read as trailing indentation).
  if (content.slice(0, first).some((line) => line !== "")) return undefined;
  if ((content[first] as string).startsWith(" ")) return undefined;
  const last = content[content.length - 1] as string;
  if (last.trim() === "") return undefined;
  const chomping = trailing === 0 ? "-" : trailing === 1 ? "" : "+";
  const body = lines
    .slice(0, trailing === 0 ? lines.length : lines.length - 1)
    .map((line) => (line === "" ? "" : `${indent}${line}`));
  return `|${chomping}\n${body.join("\n")}`;
}

const ESCAPES: Record<number, string> = {
  0: "\\0",
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  27: "\\e",
  34: '\\"',
  92: "\\\\",
  133: "\\N",
  8232: "\\L",
  8233: "\\P",
};

/** A double-quoted scalar on one line, escaping everything that is not printable as is. */
function doubleQuoted(value: string): string {
  let out = '"';
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const escaped = ESCAPES[code];
    if (escaped !== undefined) out += escaped;
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      out += `\\x${code.toString(16).toUpperCase().padStart(2, "0")}`;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += value.slice(index, index + 2);
        index++;
      } else out += unicodeEscape(code);
    } else if ((code >= 0xdc00 && code <= 0xdfff) || code === 0xfeff || code >= 0xfffe) {
      out += unicodeEscape(code);
    } else out += value[index];
  }
  return `${out}"`;
}

function unicodeEscape(code: number): string {
  return `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
}
