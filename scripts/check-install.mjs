#!/usr/bin/env node
// What a user meets who installs the packages: packs every published package as the registry would
// receive it, installs the tarballs with npm into fresh projects, and checks
// - the install size of @task-context/core alone (its tokenizer and @opentelemetry/api are optional
//   peer dependencies), and that its tracing entry point works there without the API;
// - that every entry point of every package imports on the machine's Node (media-tools on Node ≥ 22),
//   and that media-tools on an older machine Node fails with UNSUPPORTED_RUNTIME, naming Node 22;
// - that the exact tokenizer, without gpt-tokenizer, fails with an error that says what to install;
// - that `npx task-context` runs from the installed CLI on the machine's Node;
// - that each agent-framework adapter, installed alone, brings no agent framework (and its size);
// - that the delivery service deploys from the installed packages: in the projects
//   `task-context init --service workers|node` writes, with @task-context/server's tarball (and its
//   siblings') installed, `wrangler deploy --dry-run` bundles the Worker and the Node project serves
//   (so does `npx task-context-server`), on Node 24 (wrangler and node:sqlite need Node ≥ 22);
// - that every complete example of the docs runs as pasted into a new project (scripts/paste-docs.mjs;
//   `--pages docs/getting-started.md,README.md` runs only that, for those pages);
// - that every figure the docs copy from a command is within 5 % of what it gives now
//   (scripts/doc-figures.mjs).
// Run after `pnpm run build`. Prints a table; exits 1 when a check fails.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { checkFigures } from "./doc-figures.mjs";
import {
  installedProject,
  node24,
  npm,
  packagesIn,
  packPackages,
  root,
  run,
  sizeOf,
} from "./packed-packages.mjs";
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

/**
 * Entry points Node cannot import: `@task-context/server/workers` imports `cloudflare:workers`,
 * which only workerd provides. It is checked as a user deploys it instead: wrangler bundles it
 * in the project `task-context init --service workers` writes (serviceChecks, below).
 */
const WORKERD_ONLY = new Set(["@task-context/server/workers"]);
/** Entry points that need Node ≥ 22.18 (node:sqlite) in a package that runs on Node 20 otherwise. */
const NODE_22_ONLY = new Set(["@task-context/server/node"]);

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
  // Core alone, about 0.5 MB with its source maps: its peers are optional, so neither
  // @opentelemetry/api (0.6 MB, 2 MB on disk) nor gpt-tokenizer's vocabularies (26 MB) come with it.
  check("@task-context/core alone, installed", coreSize < 786_432, megabytes(coreSize));
  const probe = `
    import { loadO200kTokenizer, loadTaskContext, memoryWorkspace } from "@task-context/core";
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "Building Lumen.\\n" }));
    const missing = await loadO200kTokenizer().then(() => "loaded", (error) => error.code + ": " + error.message);
    const direct = await import("@task-context/core/o200k").then(() => "loaded", (error) => error.message);
    const tracing = await import("@task-context/core/tracing");
    const headers = {};
    tracing.injectTraceContext(headers);
    const traced = await tracing.traceDelivery(
      { tracer: "probe", name: "probe", recipient: { kind: "model" } },
      (span) => (span.recording ? "recording" : "not recording") + " " + JSON.stringify(headers),
    );
    console.log(JSON.stringify({ content: context.content, missing, direct, traced }));`;
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
  check(
    "@task-context/core/tracing without @opentelemetry/api traces nothing, as without an SDK",
    answer.traced === "not recording {}" &&
      !existsSync(join(alone, "node_modules", "@opentelemetry", "api")),
    answer.traced,
  );

  // 2. everything together, with the peers a user installs.
  const peers = {};
  for (const manifest of packages) {
    // Our own packages as peers (the CLI's @task-context/server) are installed from their tarballs.
    for (const [peer, range] of Object.entries(manifest.peerDependencies ?? {}))
      if (tarballs[peer] === undefined) peers[peer] = range;
  }
  const all = installedProject(work, "all-packages", { ...tarballs, ...peers });
  rows.push(
    `| all packages and their peers, installed | | ${megabytes(sizeOf(join(all, "node_modules")))} |`,
  );
  for (const manifest of packages) {
    for (const subpath of Object.keys(manifest.exports)) {
      if (subpath === "./package.json" || subpath.includes("*")) continue;
      const specifier = `${manifest.name}${subpath.slice(1)}`;
      if (WORKERD_ONLY.has(specifier)) {
        rows.push(`| import ${specifier} | | workerd only: bundled by wrangler below |`);
        continue;
      }
      const runtime =
        manifest.engines?.node?.includes("22") || NODE_22_ONLY.has(specifier)
          ? node24
          : machineNode;
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
  return { all, npx };
}

/** What the CLI must not install: the service, its PostgreSQL driver, its A2A SDK. */
const SERVER_ONLY = ["@task-context/server", "postgres", "@a2a-js/sdk"];
/** What an agent that only calls the service must not install either: the contract's zod, the MCP server SDK, hono. */
const NOT_FOR_THE_CLIENT = [
  ...SERVER_ONLY,
  "zod",
  "@task-context/protocols",
  "@modelcontextprotocol/server",
  "hono",
];
/** The agent frameworks the adapters work with, each an optional peer: installing an adapter brings none. */
const AGENT_FRAMEWORKS = [
  "@openai/agents",
  "@mastra/core",
  "@langchain/langgraph",
  "@langchain/core",
  "@anthropic-ai/claude-agent-sdk",
];
/** The client's install, at most (1.21 MB measured, with core and @opentelemetry/api, November 29). */
const CLIENT_MAX_BYTES = 3_145_728;

/**
 * The client, the CLI and the server, each installed alone (our other packages from their
 * tarballs, as if published): what each brings (bytes, packages), and that the client and the
 * CLI bring none of the server's dependencies — the CLI loads the server only for `serve`, and
 * says what to install when it is not there.
 */
function aloneChecks(paths) {
  const installedAlone = (name) => {
    const overrides = Object.fromEntries(
      Object.entries(paths)
        .filter(([other]) => other !== name)
        .map(([other, path]) => [other, `file:${path}`]),
    );
    const directory = installedProject(
      work,
      `${name.split("/")[1]}-alone`,
      { [name]: `file:${paths[name]}` },
      overrides,
    );
    const nodeModules = join(directory, "node_modules");
    const installed = packagesIn(nodeModules);
    const size = sizeOf(nodeModules);
    const unwanted = installed.filter((dependency) => SERVER_ONLY.includes(dependency));
    return {
      directory,
      installed,
      size,
      unwanted,
      figure: `${installed.length} packages, ${megabytes(size)}`,
    };
  };

  const client = installedAlone("@task-context/client");
  const forbidden = client.installed.filter((dependency) =>
    NOT_FOR_THE_CLIENT.includes(dependency),
  );
  check(
    "@task-context/client alone, installed",
    client.size < CLIENT_MAX_BYTES && forbidden.length === 0,
    `${client.figure}${forbidden.length === 0 ? "" : `, with ${forbidden.join(", ")}`} (at most ${megabytes(CLIENT_MAX_BYTES)}, without ${NOT_FOR_THE_CLIENT.join(", ")})`,
  );
  const probe = `
    import { createServer } from "node:http";
    import { createServiceClient } from "@task-context/client";
    const server = createServer((request, response) => {
      response.setHeader("Content-Type", "application/json");
      response.end(JSON.stringify({ status: "ok", path: request.url }));
    }).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const client = createServiceClient({ url: "http://127.0.0.1:" + server.address().port });
    console.log(JSON.stringify(await client.health()));
    server.close();`;
  writeFileSync(join(client.directory, "probe.mjs"), probe);
  const answer = spawnSync(machineNode, ["probe.mjs"], { cwd: client.directory, encoding: "utf8" });
  check(
    "the client alone asks GET /healthz on the machine's Node",
    answer.stdout.trim() === '{"status":"ok","path":"/healthz"}',
    answer.stdout.trim() || answer.stderr.split("\n").find((line) => line.includes("Error")),
  );

  const cli = installedAlone("@task-context/cli");
  check(
    "@task-context/cli alone, installed",
    cli.unwanted.length === 0,
    `${cli.figure}${cli.unwanted.length === 0 ? ", without the server" : `, with ${cli.unwanted.join(", ")}`}`,
  );
  const serve = spawnSync(
    machineNode,
    [join("node_modules", "@task-context", "cli", "dist", "cli.js"), "serve"],
    { cwd: cli.directory, encoding: "utf8" },
  );
  check(
    "task-context serve without @task-context/server says what to install",
    serve.status === 1 &&
      serve.stderr.includes("hint: install it beside the CLI: npm install @task-context/server"),
    serve.stderr.split("\n")[0] || `exit ${serve.status}`,
  );

  const server = installedAlone("@task-context/server");
  rows.push(`| @task-context/server alone, installed | | ${server.figure} |`);

  for (const name of [
    "@task-context/openai-agents",
    "@task-context/mastra",
    "@task-context/langgraph",
    "@task-context/claude-agent-sdk",
  ]) {
    const adapter = installedAlone(name);
    const frameworks = adapter.installed.filter((dependency) =>
      AGENT_FRAMEWORKS.includes(dependency),
    );
    check(
      `${name} alone, installed`,
      frameworks.length === 0,
      `${adapter.figure}${frameworks.length === 0 ? ", without any agent framework" : `, with ${frameworks.join(", ")}`}`,
    );
  }
}

/** The agent frameworks the adapters plug into: installing one adapter installs none of them. */

/**
 * Writes the project of `task-context init --service <runtime>` (the installed CLI, as a user runs
 * it) and installs it: @task-context/server from its tarball, its siblings from theirs (npm
 * overrides, as the registry would serve them), everything else as the project asks.
 */
function serviceProject(runtime, npx, paths) {
  const directory = join(work, `service-${runtime}`);
  const init = npx(["init", "--service", runtime, directory]);
  if (init.status !== 0) throw new Error(`task-context init --service ${runtime}: ${init.stderr}`);
  const local = (name) => relative(directory, paths[name]);
  const siblings = Object.keys(paths).filter((name) => name !== "@task-context/server");
  npm(
    ["pkg", "set", ...siblings.map((name) => `overrides[${name}]=file:${local(name)}`)],
    directory,
  );
  npm(["install", local("@task-context/server")], directory);
  return directory;
}

const SERVICE_ADMIN_TOKEN = "install-check-admin-token-0123456789";

/**
 * Starts the delivery service with `command` in `cwd` on a free port and an in-memory database,
 * asks GET /healthz and GET /v1/runs/%FF, and sends SIGTERM to its process group (npx and the
 * service it starts alike). Resolves to both answers, what it printed, and how the command ended:
 * `{ code, signal }`, or undefined when it had not ended, or not said "SIGTERM: stopping", 10 s
 * after SIGTERM (then the group is killed).
 */
async function serveOnce(command, args, cwd) {
  const child = spawn(command, args, {
    cwd,
    detached: true, // a process group of its own, signalled as a whole
    env: {
      ...process.env,
      PATH: `${dirname(node24)}${delimiter}${process.env.PATH ?? ""}`,
      PORT: "0",
      TASK_CONTEXT_DB: ":memory:",
      TASK_CONTEXT_ADMIN_TOKEN: SERVICE_ADMIN_TOKEN,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  child.stdout.on("data", (chunk) => {
    printed += chunk;
  });
  child.stderr.on("data", (chunk) => {
    printed += chunk;
  });
  const exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const timeout = (ms) => new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
  const url = await Promise.race([
    new Promise((resolve) => {
      child.stdout.on("data", () => {
        const match = /listening on (http:\/\/\S+)/.exec(printed);
        if (match) resolve(match[1]);
      });
    }),
    exited.then(() => undefined),
    timeout(60_000),
  ]);
  let health = "no address printed";
  let escapes = "no address printed";
  if (url !== undefined) {
    const ask = async (path, headers = {}) => {
      const response = await fetch(`${url}${path}`, { headers }).catch((error) => error);
      return response instanceof Error
        ? response.message
        : `GET ${path} ${response.status} ${await response.text()}`;
    };
    health = await ask("/healthz");
    // A percent-escape that is not UTF-8: 400 from the source, and from what ships (a bundler
    // once dropped the check from dist/, which answered 404).
    escapes = await ask("/v1/runs/%FF", { authorization: `Bearer ${SERVICE_ADMIN_TOKEN}` });
  }
  // False when the group is gone: everything in it has exited.
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch {
      return false;
    }
  };
  const stopping = new Promise((resolve) => {
    const look = () => printed.includes("SIGTERM: stopping") && resolve();
    look();
    child.stdout.on("data", look);
    child.stderr.on("data", look);
  });
  signalGroup("SIGTERM");
  const ended = await Promise.race([
    Promise.all([exited, stopping]).then(([how]) => how),
    timeout(10_000),
  ]);
  // npx ends at once; the service it started is given 5 s more to finish, then killed.
  for (let waited = 0; waited < 5_000 && signalGroup(0); waited += 100) await timeout(100);
  signalGroup("SIGKILL");
  return { health, escapes, printed, ended };
}

/** The delivery service as a user deploys it, from the installed packages (see the header). */
async function serviceChecks(paths, all, npx) {
  // The Worker: `task-context init --service workers`, then wrangler's bundle, as `wrangler deploy`
  // would upload it (no account, no upload).
  const workers = serviceProject("workers", npx, paths);
  const outdir = join(workers, "bundle");
  const bundled = spawnSync(
    node24,
    [
      join("node_modules", "wrangler", "bin", "wrangler.js"),
      "deploy",
      "--dry-run",
      "--outdir",
      outdir,
    ],
    {
      cwd: workers,
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", CI: "1" },
    },
  );
  const bundle = existsSync(join(outdir, "worker.js"))
    ? readFileSync(join(outdir, "worker.js"), "utf8")
    : "";
  const printedByWrangler = `${bundled.stdout}${bundled.stderr}`;
  const size = /Total Upload: ([\d.]+ KiB \/ gzip: [\d.]+ KiB)/.exec(bundled.stdout)?.[1];
  check(
    "init --service workers: wrangler deploy --dry-run",
    bundled.status === 0 &&
      /env\.RUNS \(RunObject\)\s+Durable Object/.test(bundled.stdout) &&
      /RunObject = class extends DurableObject/.test(bundle) &&
      !/from "node:/.test(bundle) &&
      !/WARNING/.test(printedByWrangler),
    bundled.status !== 0
      ? `exit ${bundled.status}: ${
          stripVTControlCharacters(printedByWrangler)
            .split("\n")
            .findLast((line) => line.includes("[ERROR]")) ?? printedByWrangler.slice(0, 300)
        }`
      : /WARNING/.test(printedByWrangler)
        ? printedByWrangler.split("\n").find((line) => line.includes("WARNING"))
        : `${readdirSync(outdir).join(", ")}: ${size}, RunObject bound to RUNS`,
  );

  // On Node: the project `task-context init --service node` writes (runFromEnv), and the command.
  const node = serviceProject("node", npx, paths);
  const served = await serveOnce(node24, ["src/server.ts"], node);
  const stopped = served.ended?.code === 0 && served.printed.includes("SIGTERM: stopping");
  check(
    "init --service node: node src/server.ts",
    served.health === 'GET /healthz 200 {"status":"ok"}' && stopped,
    `${served.health}; ${stopped ? "exit 0 on SIGTERM" : `on SIGTERM: ${JSON.stringify(served.ended)} ${served.printed}`}`,
  );
  // npx ends by the signal itself (npm does not wait for its child then); the service it started
  // must have stopped as asked.
  const npxServed = await serveOnce("npx", ["--no-install", "task-context-server"], all);
  const npxStopped =
    npxServed.ended !== undefined && npxServed.printed.includes("SIGTERM: stopping");
  check(
    "npx task-context-server: GET /v1/runs/%FF",
    npxServed.escapes.startsWith('GET /v1/runs/%FF 400 {"error":') &&
      npxServed.escapes.includes('"code":"INVALID_REQUEST"'),
    npxServed.escapes.slice(0, 120),
  );
  check(
    "npx task-context-server",
    npxServed.health === 'GET /healthz 200 {"status":"ok"}' && npxStopped,
    `${npxServed.health}; ${npxStopped ? "stopped on SIGTERM" : `on SIGTERM: ${JSON.stringify(npxServed.ended)} ${npxServed.printed}`}`,
  );
}

try {
  const { manifests, tarballs } = packPackages(join(work, "packs"));
  if (onlyPages === undefined) {
    const { all, npx } = installChecks(manifests, tarballs);
    aloneChecks(tarballs);
    // 4. the delivery service, deployed from the installed packages.
    await serviceChecks(tarballs, all, npx);
  }
  // 5. the docs' examples, pasted into new projects as a user would (scripts/paste-docs.mjs).
  const pasted = await pasteDocs({ work, tarballs, pages: onlyPages });
  rows.push(...pasted.rows);
  failures.push(...pasted.failures);
  // 6. the figures the docs copy from a command, measured again (scripts/doc-figures.mjs).
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
