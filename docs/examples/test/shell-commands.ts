// Test helper: the commands of a shell block, as a user would type them.
import type { Fence } from "./markdown-fences.ts";

/** The commands of a shell block: continuation lines joined, comments and prompts removed. */
export function commandsOf(fence: Fence): string[] {
  let lines = fence.body.split("\n");
  // A transcript (```console, or a shell block whose commands have a `$ ` prompt): its other lines
  // are the output, shown as prose.
  if (fence.language === "console" || lines.some((line) => line.startsWith("$ "))) {
    lines = lines.filter((line) => line.startsWith("$ ")).map((line) => line.slice(2));
  }
  const commands: string[] = [];
  let current = "";
  for (const line of lines) {
    current = current === "" ? line : `${current}\n${line}`;
    const quotes = (current.match(/'/g) ?? []).length;
    if (current.endsWith("\\") || quotes % 2 === 1) continue;
    const command = current.replace(/(^|\s)#(\s.*)?$/, "").trim();
    if (command !== "") commands.push(command);
    current = "";
  }
  return commands;
}

/** The words of a command without quotes: continuation backslashes and line breaks are spaces. */
export function wordsOf(command: string): string[] {
  return command
    .replace(/\\\n/g, " ")
    .split(/\s+/)
    .filter((word) => word !== "");
}
