import { requireString } from "../arguments.ts";

/** One ATX heading of CONTEXT.md (`## Key terminology`), as {@link contextHeadings} finds it. */
export interface ContextHeading {
  /** 1 for `#`, up to 6 for `######`. */
  level: number;
  /** The heading's text, trimmed, without its #s (nor a closing run of #s). */
  text: string;
  /** 1-based line of the heading in the text given. */
  line: number;
}

/** A heading and the UTF-16 offset where its line starts: where its section starts. */
export interface LocatedHeading extends ContextHeading {
  start: number;
}

/** A code fence's opening: its character and length, which a closing fence must match. */
interface Fence {
  character: string;
  length: number;
}

/** Up to three spaces of indentation, then 3 or more backticks or tildes, then the rest. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** The fence `line` opens, if any (an info string after backticks may not contain one). */
function openingFence(line: string): Fence | undefined {
  const match = FENCE.exec(line);
  if (match === null) return undefined;
  const run = match[1] as string;
  const character = run[0] as string;
  if (character === "`" && (match[2] as string).includes("`")) return undefined;
  return { character, length: run.length };
}

/** Whether `line` closes `fence`: the same character, at least as many, nothing after. */
function closesFence(line: string, fence: Fence): boolean {
  const match = FENCE.exec(line);
  if (match === null) return false;
  const run = match[1] as string;
  return (
    run[0] === fence.character && run.length >= fence.length && (match[2] as string).trim() === ""
  );
}

/** `line` as an ATX heading (CommonMark: up to three spaces, 1–6 #s, then a space or the end). */
function parseHeading(line: string): { level: number; text: string } | undefined {
  let index = 0;
  while (index < 3 && line[index] === " ") index++;
  let level = 0;
  while (line[index + level] === "#") level++;
  if (level === 0 || level > 6) return undefined;
  const after = line[index + level];
  if (after !== undefined && after !== " " && after !== "\t") return undefined;
  // The closing sequence: trailing #s preceded by a space or a tab (or nothing else), dropped.
  // Counted by hand rather than by a regular expression, which would backtrack on long runs.
  let end = line.length;
  while (end > index + level && (line[end - 1] === " " || line[end - 1] === "\t")) end--;
  let hashes = end;
  while (hashes > index + level && line[hashes - 1] === "#") hashes--;
  if (
    hashes < end &&
    (hashes === index + level || line[hashes - 1] === " " || line[hashes - 1] === "\t")
  )
    end = hashes;
  return { level, text: line.slice(index + level, end).trim() };
}

/** Where the line starting at `start` ends: before its line break, or at the end of the text. */
function lineEnd(markdown: string, start: number, crs: boolean): number {
  const feed = markdown.indexOf("\n", start);
  const end = feed === -1 ? markdown.length : feed;
  if (!crs) return end;
  const carriage = markdown.indexOf("\r", start);
  return carriage === -1 || carriage > end ? end : carriage;
}

/** Whether the line at `start` may be a heading or a fence: up to three spaces, then #, ` or ~. */
function mayMatter(markdown: string, start: number): boolean {
  let index = start;
  while (index < start + 3 && markdown.charCodeAt(index) === 32) index++;
  const first = markdown.charCodeAt(index);
  return first === 35 || first === 96 || first === 126; // #, `, ~
}

/**
 * Every ATX heading of `markdown` with the offset where its line starts, skipping lines inside
 * fenced code blocks (a fence left open runs to the end). Linear in the text's length: lines are
 * found with `indexOf`, and only those that start with #, ` or ~ are looked at.
 */
export function locateHeadings(markdown: string): LocatedHeading[] {
  const headings: LocatedHeading[] = [];
  const crs = markdown.includes("\r");
  let fence: Fence | undefined;
  let start = 0;
  let line = 1;
  for (;;) {
    const end = lineEnd(markdown, start, crs);
    if (mayMatter(markdown, start)) {
      const text = markdown.slice(start, end);
      if (fence !== undefined) {
        if (closesFence(text, fence)) fence = undefined;
      } else {
        fence = openingFence(text);
        const heading = fence === undefined ? parseHeading(text) : undefined;
        if (heading !== undefined) headings.push({ ...heading, line, start });
      }
    }
    if (end === markdown.length) break;
    start = end + (markdown.startsWith("\r\n", end) ? 2 : 1);
    line++;
  }
  return headings;
}

/**
 * The ATX headings of a Markdown text (`# Task context`, `## Key terminology`, …) in order, with
 * their level, text and line; headings inside fenced code blocks are not headings. These are what
 * a {@link ContextView}'s `include` and `exclude` name. Setext headings (underlined with `===`)
 * are not recognised: write CONTEXT.md's headings with #s.
 *
 * @example
 * ```ts source="../../examples/views.ts#contextHeadings"
 * const headings = contextHeadings("# Task context\n\n## Key terminology\n- **Vault**: notes.");
 * // [{ level: 1, text: "Task context", line: 1 }, { level: 2, text: "Key terminology", line: 3 }]
 * ```
 */
export function contextHeadings(markdown: string): ContextHeading[] {
  requireString("markdown", markdown);
  return locateHeadings(markdown).map(({ level, text, line }) => ({ level, text, line }));
}
