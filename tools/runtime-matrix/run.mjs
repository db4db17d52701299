#!/usr/bin/env node
// Runtime matrix: runs every package's conformance suites (packages/*/conformance/*.conformance.ts)
// against the package's BUILT output (dist/) on Node 20, Node 24, Bun, Deno and workerd.
//
//   node tools/runtime-matrix/run.mjs [--runtime node20,bun] [--package @task-context/core]
//                                     [--timeout 180] [--jobs 2] [--verbose]
//
// Each suite × runtime is bundled with rolldown into one self-contained ESM file under
// tools/runtime-matrix/.matrix/ (the package under test resolved through its `exports` map with
// the runtime's conditions and without `@task-context/source`), then executed on that runtime.
// Exit code: 0 when every case passed (and at least one ran), 1 otherwise, 2 on a usage error.

import { spawn } from "node:child_process";
import fs from "node:fs";
import { builtinModules, createRequire, SourceMap } from "node:module";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const MATRIX_DIR = path.join(HERE, ".matrix");
const HARNESS = path.join(HERE, "src", "harness.ts");
const rootRequire = createRequire(path.join(ROOT, "package.json"));

const RUNTIME_NAMES = ["node20", "node24", "bun", "deno", "workerd"];
const NODE_LIKE_CONDITIONS = ["node", "import", "default"];
/** How each runtime's bundle is built. Runtimes with the same `bundle` key share one bundle. */
const TARGETS = {
  node20: { bundle: "node", platform: "node", conditions: NODE_LIKE_CONDITIONS },
  node24: { bundle: "node", platform: "node", conditions: NODE_LIKE_CONDITIONS },
  bun: { bundle: "bun", platform: "node", conditions: ["bun", ...NODE_LIKE_CONDITIONS] },
  deno: { bundle: "deno", platform: "node", conditions: ["deno", ...NODE_LIKE_CONDITIONS] },
  workerd: {
    bundle: "workerd",
    platform: "browser",
    conditions: ["workerd", "worker", "browser", "import", "default"],
  },
};
const WORKERD_COMPATIBILITY_DATE = "2025-09-01";
const RESULT_TAG = "runtimeMatrix";
const STDERR_TAIL_LINES = 20;
const EXIT_GRACE_MS = 5_000;
const STACK_FRAMES_SHOWN = 3;

// ---------------------------------------------------------------------------------------------
// CLI

function usage() {
  return [
    "usage: node tools/runtime-matrix/run.mjs [options]",
    `  --runtime <list>   comma-separated subset of: ${RUNTIME_NAMES.join(", ")}`,
    "  --package <list>   comma-separated package names (or directory names under packages/)",
    "  --timeout <s>      timeout of one suite on one runtime, in seconds (default 180)",
    "  --jobs <n>         how many runs at a time (default 2)",
    "  --verbose          print bundler warnings and per-run timings",
  ].join("\n");
}

function parseArgs(argv) {
  const opts = {
    runtimes: [...RUNTIME_NAMES],
    packages: null,
    timeoutMs: 180_000,
    jobs: 2,
    verbose: false,
  };
  const list = (v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf("=");
    if (arg.startsWith("--") && eq !== -1) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const take = () => {
      if (value !== undefined) return value;
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case "--runtime":
      case "--runtimes": {
        const names = list(take());
        const unknown = names.filter((n) => !RUNTIME_NAMES.includes(n));
        if (unknown.length > 0) throw new UsageError(`unknown runtime(s): ${unknown.join(", ")}`);
        opts.runtimes = RUNTIME_NAMES.filter((n) => names.includes(n));
        break;
      }
      case "--package":
      case "--packages":
        opts.packages = [...(opts.packages ?? []), ...list(take())];
        break;
      case "--timeout": {
        const s = Number(take());
        if (!(s > 0)) throw new UsageError("--timeout needs a positive number of seconds");
        opts.timeoutMs = s * 1000;
        break;
      }
      case "--jobs": {
        const n = Number(take());
        if (!Number.isInteger(n) || n < 1) throw new UsageError("--jobs needs a positive integer");
        opts.jobs = n;
        break;
      }
      case "--verbose":
        opts.verbose = true;
        break;
      case "-h":
      case "--help":
        console.log(usage());
        process.exit(0);
        break;
      default:
        throw new UsageError(`unknown argument: ${argv[i]}`);
    }
  }
  return opts;
}

class UsageError extends Error {}

// ---------------------------------------------------------------------------------------------
// Runtimes: where the binaries are and which versions they are

function isExecutableFile(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The machine's Node: $TASK_CONTEXT_SYSTEM_NODE (set by scripts/bootstrap.mjs to the Node that
 * runs `npm test`), else the first `node` on PATH outside any node_modules directory (pnpm puts
 * the pinned Node 24 first on PATH), else /usr/bin/node.
 */
function findNode20() {
  const fromEnv = process.env.TASK_CONTEXT_SYSTEM_NODE;
  if (fromEnv && isExecutableFile(fromEnv)) return fromEnv;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir || dir.split(/[\\/]/).includes("node_modules")) continue;
    const candidate = path.join(path.resolve(dir), "node");
    if (isExecutableFile(candidate)) return candidate;
  }
  return "/usr/bin/node";
}

function packageDir(name) {
  try {
    return path.dirname(rootRequire.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** The executable a root devDependency's `bin` entry names. */
function packageBin(name, binName = name) {
  const dir = packageDir(name);
  if (!dir) return undefined;
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.[binName];
  return bin ? path.join(dir, bin) : undefined;
}

function locateRuntimes() {
  const denoDir = packageDir("deno");
  const denoBinary =
    denoDir && path.join(denoDir, process.platform === "win32" ? "deno.exe" : "deno");
  return {
    node20: findNode20(),
    node24: packageBin("node"),
    bun: packageBin("bun"),
    // The package's bin is a JS launcher (bin.cjs); run the binary it launches directly.
    deno: denoBinary && isExecutableFile(denoBinary) ? denoBinary : undefined,
    workerd: packageBin("workerd"),
  };
}

async function runtimeVersion(name, bin) {
  if (!bin || !isExecutableFile(bin)) return undefined;
  const r = await runProcess(bin, ["--version"], { timeoutMs: 30_000, env: childEnv(name) });
  if (r.code !== 0) return undefined;
  const first = r.stdout.trim().split("\n")[0] ?? "";
  if (name === "deno") return first.match(/deno\s+(\S+)/)?.[1] ?? first;
  if (name === "workerd") return first.replace(/^workerd\s+/, "");
  return first;
}

function childEnv(runtime) {
  const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
  // Don't let hooks or conditions meant for the runner (e.g. --conditions) leak into the runtimes.
  delete env.NODE_OPTIONS;
  if (runtime === "deno") {
    env.DENO_NO_UPDATE_CHECK = "1";
    env.DENO_NO_PACKAGE_JSON = "1";
    env.DENO_NO_PROMPT = "1";
    env.DENO_DIR = path.join(MATRIX_DIR, ".deno-dir");
  }
  if (runtime === "bun") env.DO_NOT_TRACK = "1";
  return env;
}

// ---------------------------------------------------------------------------------------------
// Workspace: packages, suites, and resolving a workspace package through its exports map

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

function listDirs(dir) {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => path.join(dir, d.name))
      .sort();
  } catch {
    return [];
  }
}

function workspacePackages() {
  const byName = new Map();
  for (const group of ["packages", "tools", "apps", "examples"]) {
    for (const dir of listDirs(path.join(ROOT, group))) {
      const file = path.join(dir, "package.json");
      if (!fs.existsSync(file)) continue;
      const json = readJson(file);
      if (typeof json.name === "string") byName.set(json.name, { name: json.name, dir, json });
    }
  }
  return byName;
}

function discoverSuites() {
  const suites = [];
  for (const dir of listDirs(path.join(ROOT, "packages"))) {
    const confDir = path.join(dir, "conformance");
    let files;
    try {
      files = fs
        .readdirSync(confDir)
        .filter((f) => f.endsWith(".conformance.ts"))
        .sort();
    } catch {
      continue;
    }
    const pkgFile = path.join(dir, "package.json");
    const pkgName = fs.existsSync(pkgFile) ? readJson(pkgFile).name : undefined;
    for (const f of files) {
      suites.push({
        packageName: pkgName ?? path.basename(dir),
        packageDir: dir,
        dirName: path.basename(dir),
        file: path.join(confDir, f),
        id: `${path.basename(dir)}/${f.replace(/\.conformance\.ts$/, "")}`,
        rel: path.relative(ROOT, path.join(confDir, f)),
      });
    }
  }
  return suites;
}

/** Node's PACKAGE_TARGET_RESOLVE, enough for workspace packages. */
function resolveTarget(target, match, conditions) {
  if (typeof target === "string")
    return match === undefined ? target : target.replaceAll("*", match);
  if (Array.isArray(target)) {
    for (const t of target) {
      const r = resolveTarget(t, match, conditions);
      if (r != null) return r;
    }
    return undefined;
  }
  if (target && typeof target === "object") {
    for (const [key, value] of Object.entries(target)) {
      if (key === "default" || conditions.includes(key)) {
        const r = resolveTarget(value, match, conditions);
        if (r !== undefined) return r;
      }
    }
    return undefined;
  }
  return target === null ? null : undefined;
}

/** Node's PACKAGE_EXPORTS_RESOLVE for `subpath` ("." or "./x"). */
function resolveExports(pkgJson, subpath, conditions) {
  let exportsField = pkgJson.exports;
  if (exportsField === undefined) {
    if (subpath === ".") return pkgJson.module ?? pkgJson.main ?? "./index.js";
    return subpath;
  }
  if (
    typeof exportsField === "string" ||
    Array.isArray(exportsField) ||
    !Object.keys(exportsField).some((k) => k.startsWith("."))
  ) {
    exportsField = { ".": exportsField };
  }
  if (Object.hasOwn(exportsField, subpath) && !subpath.includes("*")) {
    return resolveTarget(exportsField[subpath], undefined, conditions);
  }
  let bestKey;
  let bestMatch;
  for (const key of Object.keys(exportsField)) {
    const star = key.indexOf("*");
    if (star === -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (
      subpath.startsWith(prefix) &&
      subpath !== prefix &&
      subpath.endsWith(suffix) &&
      subpath.length >= key.length &&
      (bestKey === undefined || prefix.length > bestKey.indexOf("*"))
    ) {
      bestKey = key;
      bestMatch = subpath.slice(prefix.length, subpath.length - suffix.length);
    }
  }
  return bestKey === undefined
    ? undefined
    : resolveTarget(exportsField[bestKey], bestMatch, conditions);
}

function splitSpecifier(source) {
  const parts = source.split("/");
  const nameParts = source.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, nameParts).join("/");
  const rest = parts.slice(nameParts).join("/");
  return { name, subpath: rest ? `./${rest}` : "." };
}

// ---------------------------------------------------------------------------------------------
// Bundling

const builtinSet = new Set(builtinModules);

function isNodeBuiltin(source) {
  return source.startsWith("node:") || builtinSet.has(source);
}

function relToRoot(file) {
  if (!file) return "?";
  const clean = file.replace(/^\0/, "").split("?")[0];
  return path.isAbsolute(clean) ? path.relative(ROOT, clean) : clean;
}

function matrixPlugin(runtime, workspace) {
  const target = TARGETS[runtime];
  return {
    name: "runtime-matrix",
    resolveId(source, importer) {
      if (target.platform === "browser") {
        if (source.startsWith("node:")) {
          this.error(
            `"${source}" is imported by ${relToRoot(importer)}: node:* built-ins do not exist on ` +
              "workerd without the nodejs_compat flag (which the matrix does not set)",
          );
        }
        if (source.startsWith("cloudflare:")) return { id: source, external: true };
      } else {
        if (isNodeBuiltin(source)) return { id: source, external: true };
        if (runtime === "bun" && source.startsWith("bun:")) return { id: source, external: true };
      }
      if (source.startsWith(".") || source.startsWith("/") || source.startsWith("\0")) return null;
      const { name, subpath } = splitSpecifier(source);
      const pkg = workspace.get(name);
      if (!pkg) return null;
      const resolved = resolveExports(pkg.json, subpath, target.conditions);
      const rel = path.relative(ROOT, pkg.dir);
      if (resolved == null) {
        this.error(
          `"${source}" (imported by ${relToRoot(importer)}) is not exported by ${rel}/package.json ` +
            `for the conditions [${target.conditions.join(", ")}]`,
        );
      }
      const file = path.resolve(pkg.dir, resolved);
      if (!fs.existsSync(file)) {
        this.error(
          `"${source}" resolves to ${path.relative(ROOT, file)}, which does not exist: ` +
            "build the package first (pnpm build)",
        );
      }
      return file;
    },
  };
}

/** Files of a workspace package's src/ that ended up in the bundle (the suite must test dist/). */
function sourceModulesIn(moduleIds, workspace) {
  const srcDirs = [...workspace.values()]
    .filter((p) => path.relative(ROOT, p.dir).startsWith(`packages${path.sep}`))
    .map((p) => path.join(p.dir, "src") + path.sep);
  return moduleIds
    .map((id) => id.replace(/^\0/, ""))
    .filter((id) => srcDirs.some((dir) => id.startsWith(dir)))
    .map(relToRoot);
}

function entrySource(suite, runtime) {
  const imports = [
    `import { describeError, runSuite } from ${JSON.stringify(HARNESS)};`,
    "",
    "async function report(meta) {",
    "  try {",
    `    const mod = await import(${JSON.stringify(suite.file)});`,
    "    const suite = mod.default;",
    "    if (!suite || typeof suite !== 'object' || !Array.isArray(suite.cases) || !Array.isArray(suite.runtimes)) {",
    `      throw new Error(${JSON.stringify(`${suite.rel} must \`export default defineSuite({ ... })\``)});`,
    "    }",
    "    if (meta) {",
    `      return { ${RESULT_TAG}: 1, package: suite.package, runtimes: suite.runtimes, cases: suite.cases.map((c) => c.name) };`,
    "    }",
    `    return { ${RESULT_TAG}: 1, package: suite.package, results: await runSuite(suite) };`,
    "  } catch (error) {",
    `    return { ${RESULT_TAG}: 1, loadError: describeError(error) };`,
    "  }",
    "}",
    "",
  ];
  if (runtime === "workerd") {
    return [
      ...imports,
      "export default {",
      "  async fetch(request) {",
      "    const { pathname } = new URL(request.url);",
      "    if (pathname === '/ping') return new Response('ok');",
      "    const body = JSON.stringify(await report(false));",
      "    return new Response(body, { headers: { 'content-type': 'application/json' } });",
      "  },",
      "};",
      "",
    ].join("\n");
  }
  return [
    ...imports,
    "const args = typeof Deno !== 'undefined' ? Deno.args : process.argv.slice(2);",
    "const line = JSON.stringify(await report(args.includes('--meta')));",
    "// Exit explicitly once the line is out, so that a leaked timer or handle cannot hang the run.",
    "if (typeof Deno !== 'undefined') {",
    "  console.log(line);",
    "  Deno.exit(0);",
    "} else {",
    '  process.stdout.write(line + "\\n", () => process.exit(0));',
    "}",
    "",
  ].join("\n");
}

let rolldownModule;
async function loadRolldown() {
  if (!rolldownModule) {
    try {
      rolldownModule = await import("rolldown");
    } catch (error) {
      throw new Error(
        `cannot load rolldown (a root devDependency; run pnpm install): ${error.message}`,
      );
    }
  }
  return rolldownModule;
}

function jobDir(suite) {
  return path.join(MATRIX_DIR, suite.id.replace(/[^\w.-]+/g, "_"));
}

/** Bundles `suite` for `runtime`'s bundle key. Resolves to { file, ms } or { error, ms }. */
async function buildBundle(suite, runtime, workspace, verbose) {
  const target = TARGETS[runtime];
  const dir = jobDir(suite);
  fs.mkdirSync(dir, { recursive: true });
  const entry = path.join(dir, `entry.${target.bundle}.mjs`);
  const outFile = path.join(
    dir,
    target.bundle === "workerd" ? "worker.mjs" : `${target.bundle}.mjs`,
  );
  fs.writeFileSync(entry, entrySource(suite, target.bundle));
  fs.rmSync(outFile, { force: true });
  const start = performance.now();
  const warnings = [];
  let bundle;
  try {
    const { rolldown } = await loadRolldown();
    bundle = await rolldown({
      input: entry,
      cwd: ROOT,
      platform: target.platform,
      // Don't pick up tsconfig.base.json's customConditions (@task-context/source): test dist/.
      tsconfig: false,
      resolve: { conditionNames: target.conditions },
      plugins: [matrixPlugin(runtime, workspace)],
      logLevel: "warn",
      onLog(level, log) {
        warnings.push(`${level}: ${log.message}`);
      },
    });
    const { output } = await bundle.write({
      file: outFile,
      format: "esm",
      codeSplitting: false,
      // Written next to the bundle (no comment in it); the runner maps stack frames back with it.
      sourcemap: "hidden",
    });
    const moduleIds = output.flatMap((o) =>
      o.type === "chunk" ? (o.moduleIds ?? Object.keys(o.modules)) : [],
    );
    const fromSource = sourceModulesIn(moduleIds, workspace);
    if (fromSource.length > 0) {
      throw new Error(
        `the bundle contains source files instead of dist/ (${fromSource.slice(0, 3).join(", ")}): ` +
          "import the package under test by its package name, not by a relative path",
      );
    }
    if (output.filter((o) => o.type === "chunk").length !== 1) {
      throw new Error(`expected one output chunk, got ${output.length}`);
    }
    if (verbose && warnings.length > 0) {
      console.log(`[${suite.id} ${target.bundle}] bundler said:\n  ${warnings.join("\n  ")}`);
    }
    return { file: outFile, dir, ms: performance.now() - start, mapper: stackMapper(outFile) };
  } catch (error) {
    let message = cleanBuildError(error);
    if (!fs.existsSync(path.join(suite.packageDir, "dist"))) {
      message += `\n(${path.relative(ROOT, suite.packageDir)}/dist does not exist: run pnpm build first)`;
    }
    return { error: message, ms: performance.now() - start };
  } finally {
    await bundle?.close();
  }
}

function cleanBuildError(error) {
  const lines = String(error?.message ?? error)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strip ANSI colours
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    // Rolldown's own frames and the plugin's say nothing about the suite.
    .filter(
      (l) =>
        !/^\s+at\s/.test(l) &&
        !/^\[plugin runtime-matrix\]$/.test(l.trim()) &&
        !/^Build failed with \d+ errors?:$/.test(l.trim()),
    )
    .map((l) => l.replace(/^(RolldownError|Error): /, ""))
    .filter((l, i, all) => l.trim() !== "" || (i > 0 && all[i - 1].trim() !== ""));
  const text = lines.join("\n").trim();
  const kept = text.split("\n");
  return kept.slice(0, 25).join("\n") + (kept.length > 25 ? "\n…" : "");
}

/**
 * Returns a function that rewrites "bundle.mjs:line:col" in stack traces to the original
 * "packages/x/conformance/y.ts:line:col" (through the hidden source map), drops the frames of
 * the harness and of the generated entry, and keeps at most `STACK_FRAMES_SHOWN` frames.
 */
function stackMapper(bundleFile) {
  let map;
  try {
    map = new SourceMap(JSON.parse(fs.readFileSync(`${bundleFile}.map`, "utf8")));
  } catch {
    return (text) => text;
  }
  const base = path.basename(bundleFile).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const location = new RegExp(`(?:file://)?(?:[^\\s()]*/)?${base}:(\\d+):(\\d+)`, "g");
  const mapDir = path.dirname(bundleFile);
  const remap = (text) =>
    text.replace(location, (whole, line, column) => {
      const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
      if (!entry?.originalSource) return whole;
      const source = entry.originalSource.startsWith("file://")
        ? fileURLToPath(entry.originalSource)
        : path.resolve(mapDir, entry.originalSource);
      return `${relToRoot(source)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    });
  const harness = relToRoot(HARNESS);
  return (text) => {
    let frames = 0;
    return remap(text)
      .split("\n")
      .filter((l) => {
        if (!/^\s*at\s/.test(l)) return true;
        // Frames of the harness, and of the generated entry and bundler runtime (left unmapped).
        if (
          l.includes(harness) ||
          /\.matrix[\\/]/.test(l) ||
          l.includes(`${path.basename(bundleFile)}:`)
        ) {
          return false;
        }
        return ++frames <= STACK_FRAMES_SHOWN;
      })
      .join("\n");
  };
}

// ---------------------------------------------------------------------------------------------
// Processes

const liveChildren = new Set();

function killTree(child, signal = "SIGKILL") {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {}
  }
}

for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    for (const child of liveChildren) killTree(child);
    process.exit(130);
  });
}

/**
 * Runs a command; resolves to { code, signal, stdout, stderr, timedOut, ms }.
 * `onStdout(text, child)` lets the caller react to output (e.g. to stop waiting for exit).
 */
function runProcess(cmd, args, { timeoutMs, env, cwd, onStdout, onSpawn } = {}) {
  return new Promise((resolve) => {
    const start = performance.now();
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let child;
    try {
      child = spawn(cmd, args, {
        cwd: cwd ?? ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
    } catch (error) {
      resolve({
        code: null,
        signal: null,
        stdout,
        stderr: String(error),
        timedOut,
        ms: 0,
        spawnError: true,
      });
      return;
    }
    liveChildren.add(child);
    onSpawn?.(child);
    const cap = (s) => (s.length > 4_000_000 ? s.slice(-2_000_000) : s);
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d) => {
      stdout = cap(stdout + d);
      onStdout?.(stdout, child);
    });
    child.stderr.on("data", (d) => {
      stderr = cap(stderr + d);
    });
    const timer =
      timeoutMs &&
      setTimeout(() => {
        timedOut = true;
        killTree(child);
      }, timeoutMs);
    child.on("error", (error) => {
      stderr += `\n${error.message}`;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      liveChildren.delete(child);
      resolve({ code, signal, stdout, stderr, timedOut, ms: performance.now() - start, child });
    });
  });
}

function tail(text, lines = STDERR_TAIL_LINES) {
  const all = text.trimEnd().split("\n");
  return (all.length > lines ? ["…", ...all.slice(-lines)] : all).join("\n");
}

function findReport(stdout) {
  const lines = stdout.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!line.startsWith(`{"${RESULT_TAG}"`)) continue;
    try {
      return JSON.parse(line);
    } catch {}
  }
  return undefined;
}

function outcomeFromReport(report, extra = {}) {
  if (report.loadError) return { kind: "load error", message: report.loadError, ...extra };
  return {
    kind: "ran",
    package: report.package,
    results: report.results ?? [],
    meta: report,
    ...extra,
  };
}

/** Runs a node/bun/deno bundle. */
async function execProcessRuntime(runtime, bin, file, timeoutMs, extraArgs = []) {
  let args;
  if (runtime === "bun") args = ["run", "--no-install", "--no-env-file", file, ...extraArgs];
  else if (runtime === "deno") {
    args = ["run", "-A", "--no-config", "--no-lock", "--no-npm", "--no-remote", file, ...extraArgs];
  } else args = [file, ...extraArgs];
  let graceTimer;
  const r = await runProcess(bin, args, {
    timeoutMs,
    env: childEnv(runtime),
    cwd: path.dirname(file),
    onStdout(stdout, child) {
      // Once the report is out, give the process a few seconds to exit on its own.
      if (!graceTimer && findReport(stdout)) {
        graceTimer = setTimeout(() => killTree(child), EXIT_GRACE_MS);
      }
    },
  });
  clearTimeout(graceTimer);
  const report = findReport(r.stdout);
  if (report) return outcomeFromReport(report, { ms: r.ms, stderr: r.stderr });
  const how = r.timedOut
    ? `timed out after ${Math.round(timeoutMs / 1000)} s`
    : `exited with ${r.signal ? `signal ${r.signal}` : `code ${r.code}`} without reporting`;
  return {
    kind: r.timedOut ? "timeout" : "crashed",
    message: `${runtime} ${how}${tailSection("stderr", r.stderr)}${tailSection("stdout", r.stdout)}`,
    ms: r.ms,
  };
}

function mapOutcome(out, mapper) {
  if (!mapper) return out;
  if (out.message) out.message = mapper(out.message);
  for (const r of out.results ?? []) if (r.error) r.error = mapper(r.error);
  return out;
}

function tailSection(label, text) {
  return text.trim() ? `\n--- ${label} (tail) ---\n${tail(text)}` : "";
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function workerdConfig(port) {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .matrixWorker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);

const matrixWorker :Workerd.Worker = (
  modules = [ (name = "worker.mjs", esModule = embed "worker.mjs") ],
  compatibilityDate = "${WORKERD_COMPATIBILITY_DATE}",
);
`;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Serves the worker bundle with `workerd serve`, fetches the report, stops workerd. */
async function execWorkerd(bin, file, timeoutMs) {
  const start = performance.now();
  const deadline = Date.now() + timeoutMs;
  const dir = path.dirname(file);
  let lastFailure = "";
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const configFile = path.join(dir, "workerd.capnp");
    fs.writeFileSync(configFile, workerdConfig(port));
    let exited;
    let child;
    const proc = runProcess(bin, ["serve", configFile], {
      timeoutMs: Math.max(1, deadline - Date.now()),
      env: childEnv("workerd"),
      cwd: dir,
      onSpawn: (c) => {
        child = c;
      },
    }).then((r) => {
      exited = r;
      return r;
    });
    const stop = async () => {
      if (!exited && child) {
        killTree(child, "SIGTERM");
        const t = setTimeout(() => killTree(child, "SIGKILL"), 2_000);
        await proc;
        clearTimeout(t);
      }
      return proc;
    };
    try {
      // Poll until workerd answers.
      let ready = false;
      while (!ready && !exited && Date.now() < deadline) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/ping`, {
            signal: AbortSignal.timeout(2_000),
          });
          ready = res.ok && (await res.text()) === "ok";
        } catch {
          await sleep(100);
        }
      }
      if (!ready) {
        const r = await stop();
        const output = `${tailSection("stderr", r.stderr)}${tailSection("stdout", r.stdout)}`;
        if (exited && !r.timedOut && /address already in use/i.test(r.stderr) && attempt < 3) {
          lastFailure = output;
          continue;
        }
        return {
          kind: r.timedOut || Date.now() >= deadline ? "timeout" : "crashed",
          message: `workerd ${r.timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `exited with code ${r.code} before serving`}${output}`,
          ms: performance.now() - start,
        };
      }
      let body;
      let status;
      try {
        const res = await fetch(`http://127.0.0.1:${port}/run`, {
          signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
        });
        status = res.status;
        body = await res.text();
      } catch (error) {
        const r = await stop();
        const timedOut = error?.name === "TimeoutError" || r.timedOut;
        return {
          kind: timedOut ? "timeout" : "crashed",
          message: `workerd ${timedOut ? `timed out after ${Math.round(timeoutMs / 1000)} s` : `request failed: ${error.message}`}${tailSection("stderr", r.stderr)}`,
          ms: performance.now() - start,
        };
      }
      const r = await stop();
      let report;
      try {
        report = JSON.parse(body);
      } catch {}
      if (report?.[RESULT_TAG])
        return outcomeFromReport(report, { ms: performance.now() - start, stderr: r.stderr });
      return {
        kind: "crashed",
        message: `workerd answered ${status} without a report:\n${tail(body, 10)}${tailSection("stderr", r.stderr)}`,
        ms: performance.now() - start,
      };
    } finally {
      await stop();
    }
  }
  return {
    kind: "crashed",
    message: `workerd could not bind a port${lastFailure}`,
    ms: performance.now() - start,
  };
}

// ---------------------------------------------------------------------------------------------
// Scheduling

async function pool(items, concurrency, worker) {
  const results = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await worker(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}

// ---------------------------------------------------------------------------------------------
// Output

function pad(text, width) {
  return text.length >= width ? text : text + " ".repeat(width - text.length);
}

function formatSeconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function indent(text, spaces) {
  const pre = " ".repeat(spaces);
  return text
    .split("\n")
    .map((l) => pre + l)
    .join("\n");
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`runtime-matrix: ${error.message}\n${usage()}`);
      process.exit(2);
    }
    throw error;
  }
  const wallStart = performance.now();
  const workspace = workspacePackages();
  let suites = discoverSuites();
  if (opts.packages) {
    const wanted = new Set(opts.packages);
    const known = new Set(suites.flatMap((s) => [s.packageName, s.dirName]));
    const unknown = opts.packages.filter((p) => !known.has(p));
    if (unknown.length > 0) {
      console.error(`runtime-matrix: no conformance suites for: ${unknown.join(", ")}`);
    }
    suites = suites.filter((s) => wanted.has(s.packageName) || wanted.has(s.dirName));
  }

  const bins = locateRuntimes();
  const versions = Object.fromEntries(
    await Promise.all(opts.runtimes.map(async (r) => [r, await runtimeVersion(r, bins[r])])),
  );

  console.log("runtime-matrix: conformance tests on built output");
  if (versions.node20 && !versions.node20.startsWith("v20.")) {
    console.log(`note: the node20 runtime is ${bins.node20}, which is ${versions.node20}`);
  }
  if (suites.length === 0) {
    console.log(
      opts.packages
        ? `no conformance suites for --package ${opts.packages.join(",")}`
        : "no conformance suites found (packages/*/conformance/*.conformance.ts)",
    );
    console.log("0 passed, 0 failed");
    process.exit(1);
  }
  // Fresh bundles every run (the Deno cache directory is kept).
  fs.mkdirSync(MATRIX_DIR, { recursive: true });
  for (const entry of fs.readdirSync(MATRIX_DIR)) {
    if (entry !== ".deno-dir")
      fs.rmSync(path.join(MATRIX_DIR, entry), { recursive: true, force: true });
  }

  // One bundle per suite and bundle key (node20 and node24 share theirs).
  const bundles = new Map();
  const buildTimes = {};
  const getBundle = (suite, runtime) => {
    const key = `${suite.file}\0${TARGETS[runtime].bundle}`;
    if (!bundles.has(key)) {
      bundles.set(
        key,
        buildBundle(suite, runtime, workspace, opts.verbose).then((b) => {
          buildTimes[TARGETS[runtime].bundle] = (buildTimes[TARGETS[runtime].bundle] ?? 0) + b.ms;
          return b;
        }),
      );
    }
    return bundles.get(key);
  };

  // 1. Which runtimes and how many cases each suite declares: run its node bundle with --meta
  //    on the Node that runs this script.
  const metas = await pool(suites, opts.jobs, async (suite) => {
    const built = await getBundle(suite, "node24");
    if (built.error)
      return { error: `build error (node conditions):\n${built.error}`, kind: "build error" };
    const out = mapOutcome(
      await execProcessRuntime("node24", process.execPath, built.file, opts.timeoutMs, ["--meta"]),
      built.mapper,
    );
    if (out.kind !== "ran") {
      return {
        error: `could not load the suite on ${process.version}:\n${out.message}`,
        kind: out.kind,
      };
    }
    return { runtimes: out.meta.runtimes, cases: out.meta.cases, package: out.meta.package };
  });

  // 2. Every suite × runtime it declares (within --runtime).
  const cells = new Map(); // `${package}\0${runtime}` -> aggregated cell
  const failures = [];
  const runTimes = {};
  const jobs = [];
  suites.forEach((suite, i) => {
    const meta = metas[i];
    for (const runtime of opts.runtimes) {
      if (meta.error || meta.runtimes.includes(runtime)) jobs.push({ suite, meta, runtime });
    }
    if (!meta.error && meta.package !== suite.packageName) {
      console.log(
        `note: ${suite.rel} declares package ${JSON.stringify(meta.package)} but lives in ${suite.packageName}`,
      );
    }
  });

  const outcomes = await pool(jobs, opts.jobs, async ({ suite, meta, runtime }) => {
    if (meta.error) return { kind: meta.kind, message: meta.error, ms: 0 };
    const bin = bins[runtime];
    if (!bin || !versions[runtime]) {
      return {
        kind: "unavailable",
        message: `runtime ${runtime} not found or not runnable (${bin ?? "no binary"})`,
        ms: 0,
      };
    }
    const built = await getBundle(suite, runtime);
    if (built.error) return { kind: "build error", message: built.error, ms: 0 };
    const out = mapOutcome(
      runtime === "workerd"
        ? await execWorkerd(bin, built.file, opts.timeoutMs)
        : await execProcessRuntime(runtime, bin, built.file, opts.timeoutMs),
      built.mapper,
    );
    if (opts.verbose)
      console.log(`[${suite.id} ${runtime}] ${out.kind} in ${formatSeconds(out.ms)}`);
    return out;
  });

  let totalPassed = 0;
  let totalFailed = 0;
  jobs.forEach(({ suite, meta, runtime }, i) => {
    const out = outcomes[i];
    runTimes[runtime] = (runTimes[runtime] ?? 0) + (out.ms ?? 0);
    const key = `${suite.packageName}\0${runtime}`;
    const cell = cells.get(key) ?? { passed: 0, failed: 0, total: 0, errors: [] };
    cells.set(key, cell);
    if (out.kind === "ran") {
      const passed = out.results.filter((r) => r.passed).length;
      const failed = out.results.length - passed;
      cell.passed += passed;
      cell.failed += failed;
      cell.total += out.results.length;
      totalPassed += passed;
      totalFailed += failed;
      for (const r of out.results.filter((r) => !r.passed)) {
        failures.push({ suite, runtime, caseName: r.name, message: r.error ?? "(no message)" });
      }
    } else {
      // A suite that could not run counts all its cases (at least one) as failed.
      const count = Math.max(1, meta.cases?.length ?? 0);
      cell.failed += count;
      cell.total += count;
      cell.errors.push(out.kind);
      totalFailed += count;
      failures.push({ suite, runtime, kind: out.kind, message: out.message });
    }
  });

  // Table
  const packages = [...new Set(suites.map((s) => s.packageName))];
  const headers = opts.runtimes.map((r) => `${r} (${versions[r] ?? "missing"})`);
  const rows = packages.map((pkg) => [
    pkg,
    ...opts.runtimes.map((r) => {
      const cell = cells.get(`${pkg}\0${r}`);
      if (!cell) return "n/a";
      if (cell.total === 0) return "no cases";
      const errors = [...new Set(cell.errors)].join(", ");
      if (cell.failed === 0) return `passed ${cell.passed}/${cell.total}`;
      return `failed ${cell.failed}/${cell.total}${errors ? ` (${errors})` : ""}`;
    }),
  ]);
  const widths = [
    Math.max("package".length, ...packages.map((p) => p.length)) + 2,
    ...headers.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i + 1].length)) + 2),
  ];
  const line = (cols) =>
    cols.map((c, i) => (i === cols.length - 1 ? c : pad(c, widths[i]))).join("");
  console.log(line(["package", ...headers]));
  for (const row of rows) console.log(line(row));

  if (failures.length > 0) {
    // The same failure on several runtimes is printed once.
    const groups = new Map();
    for (const f of failures) {
      const key = JSON.stringify([f.suite.rel, f.caseName ?? null, f.kind ?? null, f.message]);
      const group = groups.get(key);
      if (group) group.runtimes.push(f.runtime);
      else groups.set(key, { ...f, runtimes: [f.runtime] });
    }
    console.log("\nfailures:");
    for (const f of groups.values()) {
      const what = f.caseName !== undefined ? JSON.stringify(f.caseName) : f.kind;
      console.log(`  ✗ ${f.suite.rel} on ${f.runtimes.join(", ")}: ${what}`);
      console.log(indent(f.message, 6));
    }
  }

  const timing = opts.runtimes
    .filter((r) => runTimes[r] !== undefined)
    .map((r) => `${r} ${formatSeconds(runTimes[r])}`)
    .join(", ");
  const buildTotal = Object.values(buildTimes).reduce((a, b) => a + b, 0);
  console.log(
    `\ntime: ${timing || "-"}; bundling ${formatSeconds(buildTotal)}; wall ${formatSeconds(performance.now() - wallStart)}`,
  );

  fs.writeFileSync(
    path.join(MATRIX_DIR, "report.json"),
    `${JSON.stringify(
      {
        versions,
        runs: jobs.map(({ suite, runtime }, i) => ({
          package: suite.packageName,
          suite: suite.rel,
          runtime,
          ...outcomes[i],
        })),
        passed: totalPassed,
        failed: totalFailed,
      },
      null,
      2,
    )}\n`,
  );

  if (totalPassed + totalFailed === 0) console.log("no conformance case ran");
  console.log(`${totalPassed} passed, ${totalFailed} failed`);
  process.exit(totalFailed > 0 || totalPassed === 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error?.stack ?? error);
  for (const child of liveChildren) killTree(child);
  console.log("0 passed, 1 failed");
  process.exit(1);
});
