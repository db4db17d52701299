// Vitest global setup: the stdio, Inspector and AI SDK suites spawn the built bin (dist/bin.js),
// as an MCP client would. Rebuild it when any source file is newer, so a suite never runs stale
// code; the packages it imports (core, protocols) are built by turbo's `^build` before tests.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (!entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const bin = join(root, "dist/bin.js");
  const sources = Math.max(
    newestSource(join(root, "src")),
    statSync(join(root, "package.json")).mtimeMs,
  );
  if (existsSync(bin) && statSync(bin).mtimeMs >= sources) return;
  execFileSync(join(root, "../../node_modules/.bin/tsdown"), [], { cwd: root, stdio: "ignore" });
}
