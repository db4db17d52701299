#!/usr/bin/env node
// The `prepack` script of every published package: refuses to pack a package whose build is
// missing or older than its source, so that no tarball ships without its dist/ (packing after
// `npm run demo`, which builds only what the demo needs, once gave a tarball without it and no
// error). Run in the package's folder, as npm and pnpm run lifecycle scripts.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The files a manifest points at: its exports (except the source condition), bin, main, types. */
export function shippedEntries(manifest) {
  const found = new Set();
  const walk = (value, key) => {
    if (key === "@task-context/source") return;
    if (typeof value === "string") found.add(value.replace(/^\.\//, ""));
    else if (value !== null && typeof value === "object") {
      for (const [name, inner] of Object.entries(value)) walk(inner, name);
    }
  };
  walk(manifest.exports);
  walk(typeof manifest.bin === "string" ? { bin: manifest.bin } : manifest.bin);
  walk(manifest.main);
  walk(manifest.types);
  return [...found].filter((path) => path !== "package.json" && !path.includes("*"));
}

/** The newest modification time of a source file under `folder`, tests aside (0 when none). */
function newest(folder) {
  if (!existsSync(folder)) return 0;
  let latest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (!entry.isDirectory() && /\.test\.[cm]?[jt]sx?$/.test(entry.name)) continue;
    const time = entry.isDirectory() ? newest(path) : statSync(path).mtimeMs;
    if (time > latest) latest = time;
  }
  return latest;
}

/** Why the package in `folder` cannot be packed, or undefined when it can. */
export function packProblem(folder) {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  const rebuild = `Build it first: pnpm --filter ${manifest.name} run build (or pnpm run build in the repository's root).`;
  const entries = shippedEntries(manifest);
  const missing = entries.filter((path) => !existsSync(join(folder, path)));
  if (missing.length > 0) {
    return `${manifest.name} cannot be packed: ${missing.join(", ")} ${missing.length === 1 ? "does" : "do"} not exist. ${rebuild}`;
  }
  const built = Math.min(...entries.map((path) => statSync(join(folder, path)).mtimeMs));
  if (newest(join(folder, "src")) > built) {
    return `${manifest.name} cannot be packed: src/ changed after its last build. ${rebuild}`;
  }
  return undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problem = packProblem(process.cwd());
  if (problem !== undefined) {
    console.error(`prepack: ${problem}`);
    process.exit(1);
  }
}
