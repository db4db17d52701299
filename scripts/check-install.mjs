#!/usr/bin/env node
// What a user meets who installs the packages: packs every published package as the registry would
// receive it, installs the tarballs with npm into fresh projects, and checks
// - the install size of @task-context/core alone (its tokenizer is an optional peer dependency);
// - that every entry point of every package imports on the machine's Node (media-tools on Node ≥ 22),
//   and that media-tools on an older machine Node fails with UNSUPPORTED_RUNTIME, naming Node 22;
// - that the exact tokenizer, without gpt-tokenizer, fails with an error that says what to install;
// - that `npx task-context` runs from the installed CLI on the machine's Node;
// - that every complete example of the docs runs as pasted into a new project (scripts/paste-docs.mjs;
//   `--pages docs/getting-started.md,README.md` runs only that, for those pages);
// - that every figure the docs copy from a command is within 5 % of what it gives now
//   (scripts/doc-figures.mjs).
// Run after `pnpm run build`. Prints a table; exits 1 when a check fails.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { checkFigures } from "./doc-figures.mjs";
import { installedProject, node24, packPackages, root, run, sizeOf } from "./packed-packages.mjs";
import { pasteDocs } from "./paste-docs.mjs";
import { systemNode } from "./system-node.mjs";

const machineNode = systemNode();
const work = mkdtempSync(join(tmpdir(), "task-context-install-"));
const failures = [];
const rows = [];
/** `--pages a.md,b.md`: paste only these pages' examples (and skip the other checks). */
const pagesArgument = process.argv.indexOf("--pages");
const onlyPages =
  pagesArgument === -1 ? undefined : (process.argv[pagesArgument + 1] ?? "").split(",");

const megabytes = (bytes) => `${(bytes / 1_048_576).toFixed(2)} MB`;

function check(name, ok, detail) {
  rows.push(`| ${name} | ${ok ? "ok" : "FAILED"} | ${detail} |`);
  if (!ok) failures.push(`${name}: ${detail}`);
}

/** Installs the tarballs (name → path) as a user would, and checks what every user meets. */
function installChecks(packages, paths) {
  const tarballs = Object.fromEntries(
    Object.entries(paths).map(([name, path]) => [name, `file:${path}`]),
  );

  // 1. core alone: no tokenizer vocabulary unless asked for.
  const alone = installedProject(work, "core-alone", {
    "@task-context/core": tarballs["@task-context/core"],
  });
  const coreSize = sizeOf(join(alone, "node_modules"));
  check("@task-context/core alone, installed", coreSize < 1_048_576, megabytes(coreSize));
  const probe = `
    import { loadO200kTokenizer, loadTaskContext, memoryWorkspace } from "@task-context/core";
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "Building Lumen.\\n" }));
    const missing = await loadO200kTokenizer().then(() => "loaded", (error) => error.code + ": " + error.message);
    const direct = await import("@task-context/core/o200k").then(() => "loaded", (error) => error.message);
    console.log(JSON.stringify({ content: context.content, missing, direct }));`;
  writeFileSync(join(alone, "probe.mjs"), probe);
  const answer = JSON.parse(run(machineNode, ["probe.mjs"], alone));
  check(
    "core loads CONTEXT.md on the machine's Node",
    answer.content === "Building Lumen.",
    answer.content,
  );
  check(
    "loadO200kTokenizer() without gpt-tokenizer",
    answer.missing.startsWith("TOKENIZER_UNAVAILABLE: ") &&
      answer.missing.includes("npm install gpt-tokenizer"),
    answer.missing.split(". ")[0],
  );
  check(
    "import @task-context/core/o200k without gpt-tokenizer names the missing package",
    answer.direct.includes("gpt-tokenizer"),
    answer.direct.split("\n")[0],
  );

  // 2. everything together, with the peers a user installs.
  const peers = {};
  for (const manifest of packages) {
    for (const [peer, range] of Object.entries(manifest.peerDependencies ?? {}))
      peers[peer] = range;
  }
  const all = installedProject(work, "all-packages", { ...tarballs, ...peers });
  rows.push(
    `| all packages and their peers, installed | | ${megabytes(sizeOf(join(all, "node_modules")))} |`,
  );
  for (const manifest of packages) {
    const runtime = manifest.engines?.node?.includes("22") ? node24 : machineNode;
    for (const subpath of Object.keys(manifest.exports)) {
      if (subpath === "./package.json" || subpath.includes("*")) continue;
      const specifier = `${manifest.name}${subpath.slice(1)}`;
      const result = spawnSync(
        runtime,
        ["--input-type=module", "-e", `await import(${JSON.stringify(specifier)});`],
        {
          cwd: all,
          encoding: "utf8",
        },
      );
      check(
        `import ${specifier}`,
        result.status === 0,
        result.status === 0
          ? run(runtime, ["--version"], all).trim()
          : (result.stderr.split("\n").find((line) => line.includes("Error")) ?? result.stderr),
      );
    }
  }

  // 2b. a package that needs Node ≥ 22, imported on an older machine Node: one clear error.
  const machineMajor = Number.parseInt(run(machineNode, ["--version"], all).slice(1), 10);
  for (const manifest of packages) {
    if (!manifest.engines?.node?.includes("22") || machineMajor >= 22) continue;
    const result = spawnSync(
      machineNode,
      ["--input-type=module", "-e", `await import(${JSON.stringify(manifest.name)});`],
      { cwd: all, encoding: "utf8" },
    );
    const refusal = result.stderr
      .split("\n")
      .find((line) => line.startsWith("UnsupportedRuntimeError: "));
    check(
      `import ${manifest.name} on Node ${machineMajor} fails with UNSUPPORTED_RUNTIME`,
      result.status === 1 &&
        result.stderr.includes("code: 'UNSUPPORTED_RUNTIME'") &&
        refusal?.includes("needs Node 22 or later") === true,
      refusal ??
        (result.stderr.split("\n").find((line) => line.includes("Error")) ||
          `exit ${result.status}`),
    );
  }

  // 3. the CLI, as a user runs it: npx on the machine's Node (first on PATH).
  const onMachineNode = {
    ...process.env,
    PATH: `${dirname(machineNode)}${delimiter}${process.env.PATH ?? ""}`,
  };
  const npx = (args) =>
    spawnSync("npx", ["--no-install", "task-context", ...args], {
      cwd: all,
      encoding: "utf8",
      env: onMachineNode,
    });
  const cliVersion = JSON.parse(
    readFileSync(join(root, "packages", "cli", "package.json"), "utf8"),
  ).version;
  const version = npx(["--version"]);
  check(
    "npx task-context --version",
    version.status === 0 && version.stdout === `${cliVersion}\n`,
    version.status === 0
      ? `${version.stdout.trim()} on ${run(machineNode, ["--version"], all).trim()}`
      : version.stderr,
  );
  writeFileSync(join(all, "CONTEXT.md"), "# Task context\n\n## What we are building\nLumen.\n");
  const lint = npx(["lint", "--json"]);
  check(
    "npx task-context lint --json",
    lint.status === 0 && JSON.parse(lint.stdout || "{}").ok === true,
    lint.status === 0 ? "CONTEXT.md ok" : lint.stderr || lint.stdout,
  );
}

try {
  const { manifests, tarballs } = packPackages(join(work, "packs"));
  if (onlyPages === undefined) installChecks(manifests, tarballs);
  // 4. the docs' examples, pasted into new projects as a user would (scripts/paste-docs.mjs).
  const pasted = await pasteDocs({ work, tarballs, pages: onlyPages });
  rows.push(...pasted.rows);
  failures.push(...pasted.failures);
  // 5. the figures the docs copy from a command, measured again (scripts/doc-figures.mjs).
  if (onlyPages === undefined) {
    const figures = checkFigures({ work });
    rows.push(...figures.rows);
    failures.push(...figures.failures);
  }
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log("| check | result | detail |\n| --- | --- | --- |");
for (const row of rows) console.log(row);
for (const failure of failures) console.error(`check-install: ${failure}`);
process.exit(failures.length === 0 ? 0 : 1);
