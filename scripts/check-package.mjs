#!/usr/bin/env node
// Checks the built package in the current directory the way its users will consume it:
// publint (package.json and exports), are-the-types-wrong (types for every resolution mode), the
// metadata a registry page links to, the publish settings, and README links that work there too.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const problems = [];

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit", shell: false });
  if (result.status !== 0) problems.push(`${command} ${args.join(" ")} failed`);
}

run("publint", ["--strict"]);
run("attw", ["--pack", ".", "--profile", "esm-only"]);

const manifest = JSON.parse(readFileSync("package.json", "utf8"));
for (const field of ["repository", "homepage", "bugs", "license", "engines"]) {
  if (manifest[field] === undefined) problems.push(`package.json has no "${field}"`);
}
if (manifest.repository?.directory === undefined) {
  problems.push('package.json "repository" has no "directory": links from the registry page break');
}
// The release workflow publishes every package with provenance (CONTRIBUTING.md, "Releasing").
if (manifest.publishConfig?.access !== "public" || manifest.publishConfig?.provenance !== true) {
  problems.push(
    'package.json needs "publishConfig": { "access": "public", "provenance": true }: the release workflow publishes every package public, with provenance',
  );
}

// No tarball without its build (scripts/prepack-guard.mjs): npm and pnpm run it before packing.
if (manifest.scripts?.prepack !== "node ../../scripts/prepack-guard.mjs") {
  problems.push(
    'package.json needs "scripts": { "prepack": "node ../../scripts/prepack-guard.mjs" }: without it a package packed before its build ships no dist/',
  );
}

// The registry shows README.md without the repository around it: a relative link must name a file
// the package ships.
const shipped = new Set(["README.md", "package.json", ...(manifest.files ?? [])]);
const readme = existsSync("README.md") ? readFileSync("README.md", "utf8") : "";
if (readme === "") problems.push("no README.md");
for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
  if (/^(https?:|mailto:|#)/.test(target)) continue;
  const file = target.replace(/^\.\//, "").split("#")[0];
  if (!shipped.has(file)) {
    problems.push(
      `README.md links to "${target}", which the package does not ship: use an absolute URL`,
    );
  }
}

for (const problem of problems) console.error(`check-package (${manifest.name}): ${problem}`);
process.exit(problems.length === 0 ? 0 : 1);
