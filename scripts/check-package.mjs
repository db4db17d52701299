#!/usr/bin/env node
// Checks the built package in the current directory the way its users will consume it:
// publint (package.json and exports) and are-the-types-wrong (types for every resolution mode).
import { spawnSync } from "node:child_process";

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit", shell: false });
  if (result.status !== 0) {
    console.error(`check-package: ${command} ${args.join(" ")} failed`);
    process.exit(result.status ?? 1);
  }
}

run("publint", ["--strict"]);
run("attw", ["--pack", ".", "--profile", "esm-only"]);
