// Test helper (not part of the package API): what the examples and the docs pages show, read from
// their files, so that a test can hold them to what the code does.
import { readFileSync } from "node:fs";

const examplesDirectory = new URL("../../examples/", import.meta.url);
const docsDirectory = new URL("../../../../docs/", import.meta.url);

/**
 * The output an example shows in the `//` comment lines right after `line` of
 * `examples/{file}`, without the `// ` of each line.
 */
export function shownAfter(file: string, line: string): string {
  const lines = readFileSync(new URL(file, examplesDirectory), "utf8").split("\n");
  const start = lines.indexOf(line);
  if (start === -1) throw new Error(`examples/${file} has no line ${JSON.stringify(line)}`);
  const shown: string[] = [];
  for (const comment of lines.slice(start + 1)) {
    if (!comment.startsWith("//")) break;
    shown.push(comment.replace(/^\/\/ ?/, ""));
  }
  return shown.join("\n");
}

/** The contents of the fenced code blocks in `docs/{page}` whose info string is `language`. */
export function docFences(page: string, language: string): string[] {
  const text = readFileSync(new URL(page, docsDirectory), "utf8");
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm");
  return [...text.matchAll(fence)].map((match) => match[1] ?? "");
}
