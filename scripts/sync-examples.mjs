#!/usr/bin/env node
// Keeps every code example in the TSDoc of the packages and in the Markdown docs identical to a
// region of a type-checked `*.examples.ts` file, so that no example can rot.
//
// In TSDoc:     * ```ts source="../examples/load-task-context.ts#loadTaskContext"
// In Markdown:  ```ts source="./examples/load-task-context.ts"
// In the file:  //#region loadTaskContext … //#endregion
//
// The examples are ordinary TypeScript files in each package's `examples/` folder, type-checked
// with the package. A fence names a region of one (`#name`), or the whole file, shown without its
// leading comment lines and region markers. The path is relative to the file that holds the fence.
// On a Markdown page, a whole file is a complete example (scripts/paste-docs.mjs runs it as a user
// would paste it), and a region is an excerpt, which the block's first line says (excerptLine).
// `node scripts/sync-examples.mjs` rewrites the fences; `--check` reports fences that differ, and
// fails on them. Both also fail on a TypeScript or JavaScript fence without `source="…"`: an
// example nothing compiles can rot (UNCHECKED lists the few that are allowed, and why).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const check = process.argv.includes("--check");
const SKIP = new Set(["node_modules", "dist", "dist-vendor", ".git", ".turbo", "coverage"]);

function* filesUnder(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith(".")) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (/\.(ts|md)$/.test(entry.name)) yield path;
  }
}

/**
 * Fences allowed without `source="…"`, as "file:first line of the block". Each is in a file the
 * docs do not own; move it into an examples file and delete it here.
 */
const UNCHECKED = new Set([
  // The TSDoc of createApp: apps/edge has no examples file for it yet.
  'packages/server/src/app.ts:const store = new SqlStore(openNodeDatabase(":memory:")); // Node; a Durable Object\'s on Workers',
  // A conformance suite's shape, shown to contributors; the conformance files it describes are checked.
  'runtime-tests/README.md:import { injectTaskContext } from "@task-context/core";',
]);

const CODE_FENCE = /^(\s*(?:\*\s?)?)```(?:ts|typescript|tsx|js|javascript|mjs|cjs)\b(.*)$/;

const regionCache = new Map();

const REGION_MARKER = /^\s*\/\/#(end)?region\b/;

/**
 * The regions of an examples file, by name, dedented; the whole file under the name "" (without
 * its leading comment lines, region markers and trailing blank lines).
 */
function regionsOf(path) {
  let regions = regionCache.get(path);
  if (regions !== undefined) return regions;
  regions = new Map();
  const lines = readFileSync(path, "utf8").split("\n");
  const first = lines.findIndex((line) => !line.startsWith("//"));
  const whole = lines.slice(first).filter((line) => !REGION_MARKER.test(line));
  while (whole.length > 0 && whole.at(-1).trim() === "") whole.pop();
  regions.set("", whole);
  let name;
  let body = [];
  for (const line of lines) {
    const start = /^\s*\/\/#region\s+(\S+)/.exec(line);
    if (start) {
      name = start[1];
      body = [];
    } else if (/^\s*\/\/#endregion/.test(line) && name !== undefined) {
      const indent = Math.min(
        ...body.filter((text) => text.trim() !== "").map((text) => /^ */.exec(text)[0].length),
      );
      regions.set(
        name,
        body.map((text) => text.slice(Number.isFinite(indent) ? indent : 0).trimEnd()),
      );
      name = undefined;
    } else if (name !== undefined) body.push(line);
  }
  regionCache.set(path, regions);
  return regions;
}

/**
 * The first line of a fragment on a Markdown page: a fence that names a region (`#name`) shows
 * part of an example and does not run alone, and the reader sees so, and where the whole example
 * is. A fence that names a whole file is a complete example, run as pasted by
 * scripts/paste-docs.mjs.
 */
const excerptLine = (examples) =>
  `// Excerpt from ${relative(root, examples)}, which has the whole example and its imports.`;

const problems = [];
let rewritten = 0;
let fences = 0;

for (const file of filesUnder(root)) {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const out = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const code = CODE_FENCE.exec(line);
    if (code && !code[2].includes('source="')) {
      const first = (lines[index + 1] ?? "").trim().replace(/^\*\s?/, "");
      if (!UNCHECKED.has(`${relative(root, file)}:${first}`)) {
        problems.push(
          `${relative(root, file)}:${index + 1}: a code example without source="…": put it in a type-checked examples file and name its region`,
        );
      }
    }
    const fence = /^(\s*(?:\*\s?)?)```ts source="([^"#]+)(?:#([^"]+))?"\s*$/.exec(line);
    out.push(line);
    if (!fence) continue;
    fences++;
    const [, prefix, target, region = ""] = fence;
    const where = `${relative(root, file)}:${index + 1}`;
    const end = lines.findIndex(
      (candidate, at) => at > index && candidate.trim().replace(/^\*\s?/, "") === "```",
    );
    if (end === -1) {
      problems.push(`${where}: the fence is not closed`);
      continue;
    }
    const examples = resolve(dirname(file), target);
    let body;
    try {
      body = regionsOf(examples).get(region);
    } catch {
      problems.push(`${where}: cannot read ${relative(root, examples)}`);
    }
    if (body === undefined) {
      if (!problems.at(-1)?.startsWith(where))
        problems.push(`${where}: no region "${region}" in ${relative(root, examples)}`);
      out.push(...lines.slice(index + 1, end + 1));
      index = end;
      continue;
    }
    const linePrefix = prefix.includes("*") ? prefix.replace(/\*\s?$/, "* ") : prefix;
    // On a page, a region is a fragment, and says so in its first line (see EXCERPT).
    const shown = file.endsWith(".md") && region !== "" ? [excerptLine(examples), ...body] : body;
    const wanted = shown.map((code) => (code === "" ? linePrefix.trimEnd() : linePrefix + code));
    const current = lines.slice(index + 1, end);
    if (current.join("\n") !== wanted.join("\n")) {
      const named = region === "" ? "" : `#${region}`;
      if (check) problems.push(`${where}: differs from ${relative(root, examples)}${named}`);
      rewritten++;
    }
    out.push(...wanted, lines[end]);
    index = end;
  }
  if (!check && out.join("\n") !== text) writeFileSync(file, out.join("\n"));
}

for (const problem of problems) console.error(`sync-examples: ${problem}`);
if (problems.length > 0) {
  if (check) console.error("sync-examples: run `node scripts/sync-examples.mjs` to update them.");
  process.exit(1);
}
console.log(
  check
    ? `sync-examples: ${fences} examples match their sources`
    : `sync-examples: ${fences} examples, ${rewritten} updated`,
);
