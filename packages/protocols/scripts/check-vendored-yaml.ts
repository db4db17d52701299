// Checks the built dist-vendor/ (yaml's browser build, bundled for Deno) against the installed
// yaml: the same version, and nothing shipped beside it. Deno runs that copy instead of the yaml
// dependency, so a copy left from an older install would give Deno users another yaml than every
// other runtime. Run from the package root after a build: node scripts/check-vendored-yaml.ts
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const vendor = new URL("../dist-vendor/", import.meta.url);
const installed: string = JSON.parse(
  readFileSync(fileURLToPath(import.meta.resolve("yaml/package.json")), "utf8"),
).version;

const problems: string[] = [];
const files = readdirSync(vendor).sort();
if (files.join() !== "yaml.js") {
  problems.push(`dist-vendor/ must hold yaml.js only, not ${files.join(", ")}.`);
}
const banner = readFileSync(new URL("yaml.js", vendor), "utf8").slice(0, 200);
const vendored = /^\/\*! yaml (\S+) \(browser build\)/.exec(banner)?.[1];
if (vendored !== installed) {
  problems.push(
    `dist-vendor/yaml.js is yaml ${vendored ?? "(no version in its banner)"}, the installed yaml is ${installed}: build the package again.`,
  );
}
for (const problem of problems) console.error(`check-vendored-yaml: ${problem}`);
process.exit(problems.length === 0 ? 0 : 1);
