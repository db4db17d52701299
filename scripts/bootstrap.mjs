#!/usr/bin/env node
// Entry point for a machine that has only Node ≥ 20 and npm: installs the project's pinned
// toolchain (pnpm, Node 24, Bun, Deno, workerd, …) from the lockfile with pnpm, then runs one of
// the root package's scripts with it. `npm run demo` and `npm test` come through here.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

const PNPM_VERSION = "10.34.9";
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const script = process.argv[2];
if (!script) {
  console.error("usage: node scripts/bootstrap.mjs <root script>  (e.g. check, demo:run)");
  process.exit(2);
}

// The runtime tests run on the machine's own Node as well as on the pinned Node 24. Once
// node_modules exists, npm runs this script with the pinned one: then scripts/system-node.mjs
// finds the machine's Node on PATH instead.
const machineNode = process.execPath.split(sep).includes("node_modules")
  ? undefined
  : process.execPath;
const environment = {
  ...process.env,
  ...(process.env.TASK_CONTEXT_SYSTEM_NODE === undefined && machineNode !== undefined
    ? { TASK_CONTEXT_SYSTEM_NODE: machineNode }
    : {}),
  TURBO_TELEMETRY_DISABLED: "1",
  DO_NOT_TRACK: "1",
};

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: environment });
  if (result.error) {
    console.error(`bootstrap: could not run ${command}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const localPnpm = join(root, "node_modules", ".bin", "pnpm");
if (existsSync(localPnpm))
  run(localPnpm, ["install", "--frozen-lockfile", "--reporter=append-only"]);
else
  run("npx", [
    "--yes",
    `pnpm@${PNPM_VERSION}`,
    "install",
    "--frozen-lockfile",
    "--reporter=append-only",
  ]);

run(localPnpm, ["run", script]);
