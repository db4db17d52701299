// What the packages' generators share: writing the files they generate, and the drift tests'
// short account of where a committed file differs from what the generator makes now.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** One generated file: its path relative to the package root, and its text. */
export interface GeneratedFile {
  path: string;
  content: string;
}

/**
 * Writes `files` under `root` (those whose text changed), removes the files of `directory` the
 * generator no longer makes (among those `owned` says it makes), and prints what it did.
 */
export async function writeGeneratedFiles(
  root: string,
  directory: string,
  files: readonly GeneratedFile[],
  owned: (entry: string) => boolean = () => true,
): Promise<void> {
  let changed = 0;
  for (const file of files) {
    const target = join(root, file.path);
    const previous = await readFile(target, "utf8").catch(() => undefined);
    if (previous === file.content) continue;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content);
    changed++;
    console.log(`wrote ${file.path}`);
  }
  const expected = new Set(files.map((file) => file.path));
  for (const entry of await readdir(join(root, directory))) {
    const path = `${directory}/${entry}`;
    if (owned(entry) && !expected.has(path)) {
      await rm(join(root, path));
      changed++;
      console.log(`removed ${path}`);
    }
  }
  console.log(
    changed === 0 ? "generated files are up to date" : `${changed} generated file(s) changed`,
  );
}

/** The first line where two texts differ, for a short failure message. */
export function firstDifference(committed: string, generated: string): string {
  const committedLines = committed.split("\n");
  const generatedLines = generated.split("\n");
  const line = committedLines.findIndex((text, index) => text !== generatedLines[index]);
  const index = line === -1 ? committedLines.length : line;
  return `line ${index + 1}: committed ${JSON.stringify(committedLines[index] ?? "<end>").slice(0, 200)}, generated ${JSON.stringify(generatedLines[index] ?? "<end>").slice(0, 200)}`;
}
