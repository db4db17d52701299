// Writes the published JSON Schemas (schemas/*.schema.json) from the zod schemas in src/schemas/.
// Run from the package root: node scripts/generate-schemas.ts
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedFiles, schemasDirectory } from "./schema-generation.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const files = generatedFiles();

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

// A schema removed from the registry must not stay published.
const expected = new Set(files.map((file) => file.path));
for (const entry of await readdir(join(root, schemasDirectory))) {
  const path = `${schemasDirectory}/${entry}`;
  if (entry.endsWith(".schema.json") && !expected.has(path)) {
    await rm(join(root, path));
    changed++;
    console.log(`removed ${path}`);
  }
}

console.log(
  changed === 0 ? "generated files are up to date" : `${changed} generated file(s) changed`,
);
