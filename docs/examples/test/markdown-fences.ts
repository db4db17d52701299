// Test helper: the fenced code blocks of a Markdown file, with the check each one asks for.
import { readFileSync } from "node:fs";

/** One fenced code block of a Markdown file. */
export interface Fence {
  /** The file, relative to the repository root. */
  file: string;
  /** The line of the opening fence, from 1. */
  line: number;
  /** The first word of the info string (`ts`, `json`, …), or "" when there is none. */
  language: string;
  /** The whole info string, such as `ts source="../examples/a.ts#region"`. */
  info: string;
  /** The lines between the fences, joined with "\n" (no trailing newline). */
  body: string;
  /** What `<!-- check: … -->` on the line before the fence asks for, if anything. */
  check: string | undefined;
}

const OPENING = /^(\s*)(`{3,}|~{3,})(.*)$/;
const CHECK = /^<!--\s*check:\s*(.+?)\s*-->$/;

/** The fenced code blocks of `path` (absolute), named by `file` in what they report. */
export function markdownFences(path: string, file: string): Fence[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const fences: Fence[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = OPENING.exec(lines[index] ?? "");
    if (opening === null) continue;
    const [, indent = "", marker = "", rest = ""] = opening;
    const closing = new RegExp(`^\\s*${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end] ?? "")) end++;
    const info = rest.trim();
    const previous = index > 0 ? (lines[index - 1] ?? "").trim() : "";
    fences.push({
      file,
      line: index + 1,
      language: info.split(/\s+/)[0] ?? "",
      info,
      body: lines
        .slice(index + 1, end)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
        .join("\n"),
      check: CHECK.exec(previous)?.[1],
    });
    index = end;
  }
  return fences;
}
