// Test helper: the Markdown pages whose code blocks the docs tests hold to the code.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root directory, with a trailing separator. */
export const root = fileURLToPath(new URL("../../../", import.meta.url));

function markdownUnder(directory: string): string[] {
  return readdirSync(join(root, directory), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => `${directory}/${entry.name}`);
}

function readmesUnder(directory: string): string[] {
  return readdirSync(join(root, directory), { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(join(root, directory, entry.name, "README.md")),
    )
    .map((entry) => `${directory}/${entry.name}/README.md`);
}

/**
 * Every page a user reads: the README, CONTRIBUTING.md, every page of docs/, and the README of
 * every package and app. Paths are relative to the repository root, sorted.
 */
export function documentedPages(): string[] {
  return [
    "README.md",
    "CONTRIBUTING.md",
    ...markdownUnder("docs"),
    ...readmesUnder("packages"),
    ...readmesUnder("apps"),
  ].sort();
}
