#!/usr/bin/env node
// `npm test` (through scripts/bootstrap.mjs): every check CI runs, in the fewest minutes two cores
// allow. The lint steps, then type-checking with the build, then side by side — as one waits on
// npm and the disk, others on servers and processes, while the cores stay busy — the install
// check, each package's suites and the runtime tests (all three on the built packages). Each
// step's output is printed whole when it ends, under its name; then, for each step that failed, the
// lines that name its failures (CI shows only the end of a long log); a table of durations closes
// the run. Exits 1 when a step failed.
import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

const root = dirname(dirname(fileURLToPath(import.meta.url)));

// pnpm sets pnpm_config_verify_deps_before_run=false for the scripts it runs; a pnpm started
// under it reads the string "false" as set, and checks the workspace's dependencies before each
// script (node_modules/.pnpm-workspace-state-v1.json, the manifests, the lockfile, rewriting the
// state when they changed). With turbo running scripts side by side, one such check failed a
// typecheck with "Unexpected end of JSON input", reading a file another was rewriting. Without
// the variable, the scripts skip the check (pnpm's default); bootstrap installed just before.
const env = { ...process.env };
delete env.pnpm_config_verify_deps_before_run;
const steps = [];

/** Runs `command` in the repository's root; resolves whether it succeeded. */
function step(name, command) {
  return new Promise((resolve) => {
    const started = performance.now();
    console.log(`── ${name}: started`);
    const child = spawn(command, {
      cwd: root,
      env,
      shell: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      const ok = code === 0;
      steps.push({ name, seconds, ok, output });
      process.stdout.write(
        `\n── ${name} (${command}): ${ok ? "passed" : `FAILED (${code ?? signal})`} in ${seconds.toFixed(0)} s\n${output}`,
      );
      resolve(ok);
    });
  });
}

/**
 * The lines of a step's output that say what failed: vitest's failed files and tests with the
 * first lines of each error, turbo's failed tasks and the runtime tests' and checks' "FAILED" rows.
 * At most 80, the last ones when there are more.
 */
function failureLines(output) {
  const marker =
    /(\bFAIL\b|\u00d7|\u2717|FAILED|AssertionError|Error:|(Test Files|Tests {2}).*failed|ERR_PNPM|ELIFECYCLE|Timed out|timed out|#\d+ failed|command .* exited)/;
  const lines = stripVTControlCharacters(output).split("\n");
  const picked = lines.filter((line) => marker.test(line)).map((line) => line.slice(0, 400));
  return picked.length === 0 ? lines.slice(-40) : picked.slice(-80);
}

/** Runs the steps one after another; stops at the first that fails. */
async function inOrder(...runs) {
  for (const run of runs) if (!(await run())) return false;
  return true;
}

const started = performance.now();
const ok = await inOrder(
  () => step("lint", "biome check . && pnpm run lint:workflows"),
  () => step("examples in sync", "node scripts/sync-examples.mjs --check"),
  () =>
    step(
      "typecheck, build, package checks",
      "turbo run typecheck build check:package --output-logs=errors-only",
    ),
  async () => {
    const results = await Promise.all([
      step("install check", "node scripts/check-install.mjs"),
      // --only: the builds are done (the step before); nothing rewrites dist/ while it is read.
      // --continue: every package's failures, not only the first.
      step(
        "tests",
        "turbo run test test:workerd test:browser --only --continue --output-logs=new-only",
      ),
      step("runtime tests", "node runtime-tests/run.mjs"),
    ]);
    return results.every(Boolean);
  },
);
const total = (performance.now() - started) / 1000;
for (const { name, ok: passed, output } of steps) {
  if (passed) continue;
  console.log(`\n── ${name}: what failed`);
  console.log(failureLines(output).join("\n"));
}
console.log("\n| step | result | seconds |\n| --- | --- | --- |");
for (const { name, seconds, ok: passed } of steps) {
  console.log(`| ${name} | ${passed ? "passed" : "FAILED"} | ${seconds.toFixed(0)} |`);
}
console.log(`| all | ${ok ? "passed" : "FAILED"} | ${total.toFixed(0)} |`);
process.exit(ok ? 0 : 1);
