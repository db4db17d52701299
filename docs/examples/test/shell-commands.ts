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
  let quoted = false;
  for (const line of lines) {
    // A comment starts at a `#` after a space, outside single quotes, and ends with its line.
    let code = "";
    for (let index = 0; index < line.length; index++) {
      const character = line[index];
      if (character === "'") quoted = !quoted;
      if (character === "#" && !quoted && (index === 0 || /\s/.test(line[index - 1] ?? ""))) break;
      code += character;
    }
    current = current === "" ? code : `${current}\n${code}`;
    if (current.trimEnd().endsWith("\\") || quoted) continue;
    const command = current.trim();
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
