#!/usr/bin/env node
// Runs the packages' conformance suites (packages/*/conformance/*.conformance.ts) on every runtime
// with that runtime's own test runner, one runner after the other, then reads the JUnit reports
// the runners write and prints a runtime × package table. The last line is `N passed, N failed`.
// It orchestrates and summarises only: the runners run the tests. Plain Node (20 or newer).
//
//   node runtime-tests/run.mjs [--runtime node20,deno] [--verbose]
//
// Exit code: 0 when every case passed and at least one ran, 1 otherwise, 2 on a usage error.
// Reports and logs: runtime-tests/.results/ (git-ignored).

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { systemNode } from "../scripts/system-node.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.dirname(HERE);
const RESULTS = path.join(HERE, ".results");
const SUITES = JSON.parse(fs.readFileSync(path.join(HERE, "suites.json"), "utf8"));
const RUNTIMES = ["node20", "node24", "bun", "deno", "workerd", "workerd-raw"];

// ---------------------------------------------------------------------------------------------
// Where the runtimes are

/** The executable named `name` in the `bin` of the package `name` installed in `directory`. */
function packageBin(directory, name) {
  const packageDirectory = path.join(directory, "node_modules", name);
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDirectory, "package.json"), "utf8"));
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin[name];
  return path.join(packageDirectory, bin);
}

/** Where `name` is installed for the package installed in `directory` (pnpm's layout). */
function dependencyDirectory(directory, name) {
  let nodeModules = directory;
  while (path.basename(nodeModules) !== "node_modules") nodeModules = path.dirname(nodeModules);
  return fs.realpathSync(path.join(nodeModules, name));
}

/** The version of the workerd package that runtime-tests' dependency `chain[0]` reaches through the rest of `chain`. */
function workerdVersion(...chain) {
  let directory = fs.realpathSync(path.join(HERE, "node_modules", chain[0]));
  for (const name of [...chain.slice(1), "workerd"])
    directory = dependencyDirectory(directory, name);
  return JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8")).version;
}

function firstLine(command, args) {
  const result = spawnSync(command, args, { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim().split("\n")[0] : "?";
}

// ---------------------------------------------------------------------------------------------
// What runs where

/** The conformance files, relative to the repository root, less those listed under `notOn`. */
function conformanceFiles(notOn = {}) {
  const files = [];
  for (const directory of fs.readdirSync(path.join(ROOT, "packages")).sort()) {
    const conformance = path.join(ROOT, "packages", directory, "conformance");
    if (!fs.existsSync(conformance)) continue;
    for (const file of fs.readdirSync(conformance).sort()) {
      const relative = `packages/${directory}/conformance/${file}`;
      if (file.endsWith(".conformance.ts") && !(relative in notOn)) files.push(relative);
    }
  }
  return files;
}

/** Paths for runners started in runtime-tests/. */
const fromHere = (files) => files.map((file) => path.relative(HERE, path.join(ROOT, file)));

/**
 * Every runner of every runtime, in the order they run: `start(report, files)` gives the command
 * (started in runtime-tests/) that runs `files` and writes a JUnit report to `report`. `files`
 * are the conformance files the runner must report on (the vitest configs select the same ones);
 * the smoke test has none.
 */
function runners() {
  const node24 = packageBin(ROOT, "node");
  const denoBinary = path.join(ROOT, "node_modules", "deno", "deno");
  const vitest = (config) => (report) => ({
    command: node24,
    args: [
      packageBin(ROOT, "vitest"),
      "run",
      `--config=${config}`,
      "--reporter=default",
      "--reporter=junit",
      `--outputFile.junit=${report}`,
    ],
  });
  const deno = (permissions) => (report, files) => ({
    command: denoBinary,
    args: [
      "test",
      "--config=deno/deno.json",
      "--no-check",
      ...permissions,
      `--junit-path=${report}`,
      ...fromHere(files),
    ],
    env: {
      // Without it, Deno reads the root package.json and rewrites it from pnpm-workspace.yaml.
      DENO_NO_PACKAGE_JSON: "1",
      DENO_NO_UPDATE_CHECK: "1",
      DENO_DIR: path.join(ROOT, "node_modules", ".cache", "deno"),
    },
  });
  const all = conformanceFiles();
  const withAllPermissions = (file) => file in SUITES.denoWithAllPermissions;
  return [
    {
      runtime: "node20",
      files: conformanceFiles(SUITES.notOnNode20),
      version: () => firstLine(systemNode(), ["--version"]),
      start: (report, files) => ({
        command: systemNode(),
        args: [
          "--import=tsx",
          "--test",
          "--test-concurrency=2",
          "--test-timeout=30000",
          "--test-reporter=spec",
          "--test-reporter-destination=stdout",
          "--test-reporter=junit",
          `--test-reporter-destination=${report}`,
          ...fromHere(files),
        ],
        // tsx compiles the TypeScript; this tsconfig's `paths` maps "vitest" to node:test.
        env: { TSX_TSCONFIG_PATH: "node20/tsconfig.json" },
      }),
    },
    {
      runtime: "node24",
      files: all,
      version: () => firstLine(node24, ["--version"]),
      start: vitest("node24/vitest.config.ts"),
    },
    {
      runtime: "bun",
      files: all,
      version: () => firstLine(packageBin(ROOT, "bun"), ["--version"]),
      start: (report, files) => ({
        command: packageBin(ROOT, "bun"),
        args: [
          "test",
          "--timeout=30000",
          "--reporter=junit",
          `--reporter-outfile=${report}`,
          ...fromHere(files),
        ],
      }),
    },
    {
      runtime: "deno",
      files: all.filter((file) => !withAllPermissions(file)),
      version: () => firstLine(denoBinary, ["--version"]).split(" ")[1],
      // Reads and writes (nodeWorkspace on a temporary directory), the host name (the AI SDK
      // reads it as it loads), the variables the assertion library reads for its colours, and
      // those that name the temporary directory.
      start: deno([
        "--allow-read",
        "--allow-write",
        "--allow-sys=hostname",
        "--allow-env=CI,FORCE_COLOR,FORCE_TTY,NO_COLOR,TERM,TMPDIR,TMP,TEMP",
      ]),
    },
    {
      runtime: "deno",
      name: "deno-all-permissions",
      files: all.filter(withAllPermissions),
      start: deno(["--allow-all"]),
    },
    {
      runtime: "workerd",
      files: conformanceFiles(SUITES.notOnWorkerd),
      version: () => workerdVersion("@cloudflare/vitest-plugin", "miniflare"),
      start: vitest("workerd/vitest.config.ts"),
    },
    {
      runtime: "workerd-raw",
      files: [],
      version: () => workerdVersion("wrangler"),
      start: vitest("workerd-raw/vitest.config.ts"),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Running a runner

/** Runs `command`, its output going to `logFile` (and to the terminal with --verbose). */
function run({ command, args, env = {} }, logFile, verbose) {
  return new Promise((resolve) => {
    const log = fs.createWriteStream(logFile);
    log.write(`$ ${[command, ...args].join(" ")}\n\n`);
    const environment = { ...process.env, ...env, NO_COLOR: "1" };
    // Hooks or flags meant for this script must not reach the runtimes; FORCE_COLOR would
    // override NO_COLOR in some runners' output.
    delete environment.NODE_OPTIONS;
    delete environment.FORCE_COLOR;
    const child = spawn(command, args, {
      cwd: HERE,
      env: environment,
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on("data", (chunk) => {
        log.write(chunk);
        if (verbose) process.stdout.write(chunk);
      });
    }
    child.on("error", (error) => {
      log.end(`\n${error.message}\n`);
      resolve({ code: null, error: error.message });
    });
    child.on("close", (code, signal) => {
      log.end();
      resolve({ code, signal });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Reading JUnit reports

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, name) => {
    if (name[0] === "#") {
      const hex = name[1] === "x" || name[1] === "X";
      return String.fromCodePoint(Number.parseInt(name.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    return ENTITIES[name] ?? entity;
  });
}

function attributes(text) {
  const found = {};
  for (const match of text.matchAll(/([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    found[match[1]] = decode(match[3] ?? match[4] ?? "");
  }
  return found;
}

/**
 * The test cases of a JUnit report (for each, the names of the suites around it and its own,
 * its attributes, and its outcome with the failure's text) and the test files the report names
 * (vitest, bun and deno name them; node:test does not). Reads what vitest, bun, deno and
 * node:test write; not a general XML parser.
 */
function readJUnit(xml) {
  const cases = [];
  const files = new Set();
  const suites = [];
  let current;
  const tags =
    /<(\/?)(testsuite|testcase|failure|error|skipped)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
  let textStart = -1;
  for (const match of xml.matchAll(tags)) {
    const [, closing, tag, attributeText, selfClosing] = match;
    if (tag === "testsuite") {
      const { name = "", file } = closing ? {} : attributes(attributeText);
      if (file ?? (name.endsWith(".ts") ? name : undefined)) files.add(file ?? name);
      if (closing) suites.pop();
      else if (!selfClosing) suites.push(name);
    } else if (tag === "testcase") {
      if (closing) {
        current = undefined;
        continue;
      }
      current = { suites: [...suites], ...attributes(attributeText), outcome: "passed", text: "" };
      cases.push(current);
      if (selfClosing) current = undefined;
    } else if (current !== undefined) {
      if (tag === "skipped" && !closing) current.outcome = "skipped";
      else if (!closing) {
        current.outcome = "failed";
        const found = attributes(attributeText);
        current.text = found.message ?? found.failure ?? "";
        textStart = selfClosing ? -1 : match.index + match[0].length;
      } else if (textStart !== -1) {
        const body = decode(xml.slice(textStart, match.index)).trim();
        if (body) current.text = body;
        textStart = -1;
      }
    }
  }
  return { cases, files };
}

function workspacePackages() {
  const byDirectory = new Map();
  for (const directory of fs.readdirSync(path.join(ROOT, "packages"))) {
    const manifest = path.join(ROOT, "packages", directory, "package.json");
    if (fs.existsSync(manifest)) {
      byDirectory.set(directory, JSON.parse(fs.readFileSync(manifest, "utf8")).name);
    }
  }
  return byDirectory;
}

/**
 * The results of one report: one per test, named `package > case`. The package is the suite
 * file's top-level `describe` (a package name), else the package whose directory the report
 * names. A group that the runner reports as a test of its own (deno reports each `describe`)
 * is left out, unless it failed while none of the tests inside it did.
 */
function results(cases, packages) {
  const names = new Set(packages.values());
  const entries = cases.map((testCase) => {
    const segments = [...testCase.suites, ...(testCase.name ?? "").split(" > ")];
    const at = segments.findIndex((segment) => names.has(segment));
    let packageName = at === -1 ? undefined : segments[at];
    if (packageName === undefined) {
      const where = [testCase.file, testCase.classname, ...segments].join(" ");
      const directory = where.match(/packages\/([\w.-]+)\//)?.[1];
      packageName = packages.get(directory) ?? "(no package)";
    }
    const label = (at === -1 ? segments : segments.slice(at + 1))
      .filter((segment, index, all) => segment && segment !== all[index - 1])
      .join(" > ");
    return { packageName, label, outcome: testCase.outcome, text: testCase.text };
  });
  const key = (entry) => [entry.packageName, entry.label].filter(Boolean).join(" > ");
  return entries.filter((entry) => {
    const inside = entries.filter((other) => key(other).startsWith(`${key(entry)} > `));
    if (inside.length === 0) return true;
    return entry.outcome === "failed" && inside.every((other) => other.outcome !== "failed");
  });
}

// ---------------------------------------------------------------------------------------------
// Output

const pad = (text, width) => text + " ".repeat(Math.max(0, width - text.length));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function cell(counts) {
  if (counts === undefined) return "n/a";
  const total = counts.passed + counts.failed + counts.skipped;
  const skipped = counts.skipped > 0 ? ` (${counts.skipped} skipped)` : "";
  return counts.failed > 0
    ? `failed ${counts.failed}/${total}${skipped}`
    : `passed ${counts.passed}/${total}${skipped}`;
}

function printTable(columns, rows, table) {
  const headers = ["package", ...columns.map((column) => column.header)];
  const lines = rows.map((row) => [
    row,
    ...columns.map((column) => cell(table.get(row)?.get(column.runtime))),
  ]);
  const widths = headers.map((header, index) =>
    Math.max(header.length, ...lines.map((line) => line[index].length)),
  );
  const format = (line) =>
    line
      .map((text, index) => pad(text, widths[index]))
      .join("  ")
      .trimEnd();
  console.log(format(headers));
  for (const line of lines) console.log(format(line));
}

// ---------------------------------------------------------------------------------------------

function parseArguments(argv) {
  const options = { runtimes: RUNTIMES, verbose: false };
  for (let index = 0; index < argv.length; index++) {
    const [flag, inline] = argv[index].split(/=(.*)/s);
    if (flag === "--verbose") options.verbose = true;
    else if (flag === "--runtime") {
      const value = inline ?? argv[++index] ?? "";
      const wanted = value.split(",").filter(Boolean);
      const unknown = wanted.filter((name) => !RUNTIMES.includes(name));
      if (wanted.length === 0 || unknown.length > 0) {
        throw new Error(`--runtime takes a list of: ${RUNTIMES.join(", ")}`);
      }
      options.runtimes = RUNTIMES.filter((name) => wanted.includes(name));
    } else {
      throw new Error(
        `unknown argument ${argv[index]}; usage: run.mjs [--runtime list] [--verbose]`,
      );
    }
  }
  return options;
}

async function main() {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`runtime-tests: ${error.message}`);
    return 2;
  }
  const wall = performance.now();
  fs.rmSync(RESULTS, { recursive: true, force: true });
  fs.mkdirSync(RESULTS, { recursive: true });
  const packages = workspacePackages();
  const selected = runners().filter((runner) => options.runtimes.includes(runner.runtime));

  const table = new Map(); // package → runtime → { passed, failed, skipped }
  const count = (packageName, runtime, outcome) => {
    if (!table.has(packageName)) table.set(packageName, new Map());
    const row = table.get(packageName);
    if (!row.has(runtime)) row.set(runtime, { passed: 0, failed: 0, skipped: 0 });
    row.get(runtime)[outcome]++;
  };
  const failures = [];
  // The machine's Node must not be the toolchain's: the node20 column would prove nothing.
  if (options.runtimes.includes("node20")) {
    const machine = firstLine(systemNode(), ["--version"]);
    if (machine === firstLine(packageBin(ROOT, "node"), ["--version"])) {
      failures.push({
        where: "node20: the machine's Node",
        text: `${systemNode()} is the toolchain's Node ${machine}, not the machine's own: set TASK_CONTEXT_SYSTEM_NODE to it.`,
        runner: true,
      });
    }
  }
  const timings = new Map();
  const columns = [];
  for (const runner of selected) {
    const name = runner.name ?? runner.runtime;
    if (runner.version) {
      columns.push({ runtime: runner.runtime, header: `${runner.runtime} (${runner.version()})` });
    }
    const report = path.join(RESULTS, `${name}.xml`);
    const logFile = path.join(RESULTS, `${name}.log`);
    const started = performance.now();
    const exit = await run(runner.start(report, runner.files), logFile, options.verbose);
    const elapsed = performance.now() - started;
    timings.set(runner.runtime, (timings.get(runner.runtime) ?? 0) + elapsed);
    const { cases, files } = fs.existsSync(report)
      ? readJUnit(fs.readFileSync(report, "utf8"))
      : { cases: [], files: new Set() };
    const entries = results(cases, packages);
    const failed = entries.filter((entry) => entry.outcome === "failed");
    console.log(
      `${name}: ${entries.length} tests, ${failed.length} failed, exit ${exit.error ?? exit.signal ?? exit.code} (${seconds(elapsed)})`,
    );
    for (const entry of entries) count(entry.packageName, runner.runtime, entry.outcome);
    for (const entry of failed) {
      failures.push({
        where: `${runner.runtime}: ${entry.packageName} > ${entry.label}`,
        text: entry.text,
      });
    }
    // A suite file the runner was given but reported nothing of counts as a failure: by file
    // where the report names its files, else by package.
    const reported = new Set(entries.map((entry) => entry.packageName));
    for (const file of runner.files) {
      const packageName = packages.get(file.split("/")[1]);
      const seen =
        files.size > 0 ? [...files].some((name) => name.endsWith(file)) : reported.has(packageName);
      if (seen) continue;
      count(packageName, runner.runtime, "failed");
      failures.push({
        where: `${runner.runtime}: ${packageName}`,
        text: `${name} reported no test of ${file}`,
      });
    }
    if (exit.code !== 0 && failed.length === 0) {
      // The runner failed without a failing test in its report: count that as a failure too.
      const output = fs.readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-20).join("\n");
      failures.push({
        where: `${runner.runtime}: ${name} exited with ${exit.error ?? exit.signal ?? `code ${exit.code}`}`,
        text: `${output}\n(all of it: ${path.relative(ROOT, logFile)})`,
        runner: true,
      });
    }
  }

  let passed = 0;
  let failed = failures.filter((failure) => failure.runner).length;
  let skipped = 0;
  for (const row of table.values()) {
    for (const counts of row.values()) {
      passed += counts.passed;
      failed += counts.failed;
      skipped += counts.skipped;
    }
  }
  const rows = [...table.keys()].sort(
    (a, b) => Number(!a.startsWith("@")) - Number(!b.startsWith("@")) || a.localeCompare(b),
  );

  console.log(
    "\nruntime-tests: conformance suites on the built packages, each runtime with its own runner",
  );
  printTable(columns, rows, table);
  if (failures.length > 0) {
    console.log(`\nfailures (${failures.length}):`);
    for (const failure of failures) {
      console.log(`\n✗ ${failure.where}`);
      const text = failure.text.split("\n").slice(0, 25).join("\n    ");
      if (text) console.log(`    ${text}`);
    }
  }
  const times = [...timings].map(([runtime, ms]) => `${runtime} ${seconds(ms)}`).join(", ");
  console.log(`\ntime: ${times}; wall ${seconds(performance.now() - wall)}`);
  if (skipped > 0) console.log(`${skipped} skipped (counted neither as passed nor as failed)`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 || passed === 0 ? 1 : 0;
}

process.exitCode = await main();
