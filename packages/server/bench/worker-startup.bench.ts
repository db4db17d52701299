// The Worker's size and startup, on real workerd. wrangler bundles three Workers the way
// `wrangler deploy --dry-run --outdir` does: apps/edge as a user deploys it (the MCP SDK loaded
// on the first /mcp request), the same Worker with the SDK imported at startup
// (bench/eager-mcp-worker.ts: how every isolate started before), and a minimal Hono Worker
// answering /healthz (bench/minimal-worker.ts, the baseline). Each round starts a new workerd
// (miniflare, from wrangler's own dependencies) per Worker, in alternating order, and measures in
// fresh isolates: how long importing the bundle takes (its module evaluation: the Worker's
// startup), then the first /healthz, or the first /mcp `initialize` of an agent, and the same
// request again (warm). Medians of the rounds.
// Run: `pnpm --filter @task-context/server run bench` (after a build: wrangler bundles dist/);
// BENCH_ROUNDS sets the rounds (default 9).
import { spawnSync } from "node:child_process";
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "@task-context/bench-kit";
import { benchAdminHeaders, benchAdminToken, benchRun } from "./cycle.ts";

const server = fileURLToPath(new URL("..", import.meta.url));
const edge = join(server, "../../apps/edge");
const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const folder = mkdtempSync(join(tmpdir(), "task-context-worker-startup-"));
const wrangler = join(server, "node_modules/wrangler/bin/wrangler.js");

/** What this benchmark uses of miniflare's API (miniflare is wrangler's dependency, not ours). */
interface Fetcher {
  fetch(url: string, init?: RequestInit): Promise<Response>;
}
interface Miniflare {
  ready: Promise<unknown>;
  getWorker(name: string): Promise<Fetcher>;
  dispose(): Promise<void>;
}
interface MiniflareModule {
  Miniflare: new (options: unknown) => Miniflare;
  convertV4MiniflareOptions(options: unknown): unknown;
}
const miniflare = (await import(
  pathToFileURL(
    createRequire(realpathSync(join(server, "node_modules/wrangler/package.json"))).resolve(
      "miniflare",
    ),
  ).href
)) as MiniflareModule;

/** A Worker as wrangler bundles it: its one module, and the sizes wrangler printed. */
interface Bundle {
  name: string;
  code: string;
  kib: number;
  gzipKib: number;
  /** KiB of the bundle from the MCP SDK's modules (esbuild's metafile). */
  sdkKib: number;
  /** Whether it is the service (with RunObject, the agents' routes and /mcp). */
  service: boolean;
  /** How `wrangler deploy` was told to build it, and where. */
  args: string[];
  cwd: string;
}

const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", CI: "1" };

function bundle(name: string, args: string[], cwd: string, service: boolean): Bundle {
  const outdir = join(folder, name.replace(/\W+/g, "-"));
  const result = spawnSync(
    process.execPath,
    [
      wrangler,
      "deploy",
      ...args,
      "--dry-run",
      "--outdir",
      outdir,
      "--metafile",
      join(outdir, "meta.json"),
    ],
    { cwd, env: wranglerEnv, encoding: "utf8" },
  );
  const printed = `${result.stdout}${result.stderr}`;
  const sizes = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(printed);
  if (result.status !== 0 || sizes === null) throw new Error(`wrangler failed:\n${printed}`);
  const file = readdirSync(outdir).find((entry) => entry.endsWith(".js"));
  if (file === undefined) throw new Error(`wrangler wrote no module to ${outdir}`);
  const meta = JSON.parse(readFileSync(join(outdir, "meta.json"), "utf8")) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  const sdkBytes = Object.values(meta.outputs)
    .flatMap((output) => Object.entries(output.inputs))
    .filter(([path]) => path.includes("/@modelcontextprotocol/"))
    .reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  return {
    name,
    code: readFileSync(join(outdir, file), "utf8"),
    kib: Number(sizes[1]),
    gzipKib: Number(sizes[2]),
    sdkKib: sdkBytes / 1024,
    service,
    args,
    cwd,
  };
}

/**
 * The "Active" time of `wrangler check startup`'s CPU profile of the same bundle: wrangler's own
 * measure of a Worker's startup (it imports the Worker in a fresh workerd, profiling), a check on
 * ours. The profiler slows what it measures.
 */
function profiledStartup(target: Bundle): number {
  const args = target.args.length === 0 ? [] : [`--args=${target.args.join(" ")}`];
  const result = spawnSync(
    process.execPath,
    [wrangler, "check", "startup", "--outfile", join(folder, "startup.cpuprofile"), ...args],
    { cwd: target.cwd, env: wranglerEnv, encoding: "utf8" },
  );
  const active = /Active: ([\d.]+) ms/.exec(`${result.stdout}${result.stderr}`);
  if (result.status !== 0 || active === null) {
    throw new Error(`wrangler check startup failed:\n${result.stdout}${result.stderr}`);
  }
  return Number(active[1]);
}

const minimalConfig = join(folder, "minimal.wrangler.json");
writeFileSync(
  minimalConfig,
  JSON.stringify({
    name: "minimal",
    main: join(server, "bench/minimal-worker.ts"),
    compatibility_date: "2026-11-01",
    compatibility_flags: ["no_nodejs_compat", "enable_request_signal"],
    send_metrics: false,
  }),
);
const bundles = [
  bundle("apps/edge (MCP SDK loaded by the first /mcp request)", [], edge, true),
  bundle(
    "apps/edge with the MCP SDK imported at startup",
    ["bench/eager-mcp-worker.ts", "--config", join(edge, "wrangler.jsonc")],
    server,
    true,
  ),
  bundle("minimal Hono Worker (baseline)", ["--config", minimalConfig], server, false),
];

/**
 * The measured isolate's main module: it imports the bundle only when asked (`/__start`), so the
 * import is timed on its own (wrangler's `check startup` profiles the same import), then hands
 * every other request to the bundle's Worker.
 */
const wrapper = `
let worker;
export default {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    if (path === "/__noop") return new Response("ok");
    if (path === "/__start") {
      worker = await import("./worker.js");
      return new Response("ok");
    }
    return worker.default.fetch(request, env, ctx);
  },
};`;

// As apps/edge/wrangler.jsonc binds them.
const compatibility = {
  compatibilityDate: "2026-11-01",
  compatibilityFlags: ["no_nodejs_compat", "enable_request_signal"],
};
const serviceBindings = {
  ratelimits: {
    ADDRESS_RATE_LIMITER: { namespace_id: "1001", simple: { limit: 1200, period: 60 } },
  },
  bindings: { TASK_CONTEXT_ADMIN_TOKEN: benchAdminToken, TASK_CONTEXT_RATE_LIMIT: "1200/60" },
};

/** One request's wall-clock time in ms, seen from this process; fails unless it is a 200. */
async function timed(worker: Fetcher, path: string, init?: RequestInit): Promise<number> {
  const start = performance.now();
  const response = await worker.fetch(`http://localhost${path}`, init);
  const text = await response.text();
  const elapsed = performance.now() - start;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return elapsed;
}

interface Sample {
  /** Importing the bundle in a fresh isolate (module evaluation), dispatch overhead removed. */
  evaluation: number;
  firstHealth: number;
  warmHealth: number;
  firstMcp?: number;
  warmMcp?: number;
}

/** What the measured /mcp request sends: an MCP `initialize`, the first message of a client. */
const clientInfo = { name: "worker-startup-bench", version: "1.0.0" };
const initializeMessage = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo,
  },
});
const initialize = (token: string): RequestInit => ({
  method: "POST",
  headers: {
    Authorization: `Bearer ${token}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
  },
  body: initializeMessage,
});

/** Time of `/__start` minus that of a request the wrapper answers alone. */
async function evaluation(worker: Fetcher): Promise<number> {
  await timed(worker, "/__noop");
  const overhead = await timed(worker, "/__noop");
  return (await timed(worker, "/__start")) - overhead;
}

/**
 * One round of one Worker in a new workerd: the isolate `health` (the wrapper) imports the bundle
 * and answers /healthz twice; for the service, the isolate `mcp` does the same with an agent's
 * /mcp initialize, its run and agent made beforehand through a third isolate (`objects`, the
 * bundle itself as the Worker, which holds the RunObjects that the other two bind).
 */
async function round(target: Bundle): Promise<Sample> {
  const modules = [
    { type: "ESModule", path: "wrapper.js", contents: wrapper },
    { type: "ESModule", path: "worker.js", contents: target.code },
  ];
  const runs = { RUNS: { className: "RunObject", scriptName: "objects", useSQLite: true } };
  const workers = target.service
    ? [
        { name: "health", modules, durableObjects: runs, ...serviceBindings, ...compatibility },
        { name: "mcp", modules, durableObjects: runs, ...serviceBindings, ...compatibility },
        {
          name: "objects",
          modules: [{ type: "ESModule", path: "worker.js", contents: target.code }],
          durableObjects: { RUNS: { className: "RunObject", useSQLite: true } },
          ...serviceBindings,
          ...compatibility,
        },
      ]
    : [{ name: "health", modules, ...compatibility }];
  const mf = new miniflare.Miniflare(miniflare.convertV4MiniflareOptions({ workers }));
  try {
    await mf.ready;
    const health = await mf.getWorker("health");
    const sample: Sample = {
      evaluation: await evaluation(health),
      firstHealth: await timed(health, "/healthz"),
      warmHealth: 0,
    };
    await timed(health, "/healthz");
    sample.warmHealth = await timed(health, "/healthz");
    if (!target.service) return sample;

    const objects = await mf.getWorker("objects");
    const created = await objects.fetch("http://localhost/v1/runs", {
      method: "POST",
      headers: benchAdminHeaders,
      body: JSON.stringify(benchRun(1)),
    });
    const { run_id } = (await created.json()) as { run_id: string };
    const added = await objects.fetch(`http://localhost/v1/runs/${run_id}/agents`, {
      method: "POST",
      headers: benchAdminHeaders,
      body: JSON.stringify({ tag: "agent" }),
    });
    const { token } = (await added.json()) as { token: string };
    const mcp = await mf.getWorker("mcp");
    await evaluation(mcp);
    sample.firstMcp = await timed(mcp, "/mcp", initialize(token));
    await timed(mcp, "/mcp", initialize(token));
    sample.warmMcp = await timed(mcp, "/mcp", initialize(token));
    return sample;
  } finally {
    await mf.dispose();
  }
}

try {
  const samples = new Map<Bundle, Sample[]>(bundles.map((target) => [target, []]));
  for (const target of bundles) await round(target); // warm-up: workerd's binary, the page cache
  for (let index = 0; index < rounds; index++) {
    // Alternating order, so a busy neighbour or drift hits every Worker alike.
    for (let offset = 0; offset < bundles.length; offset++) {
      const target = bundles[(index + offset) % bundles.length] as Bundle;
      samples.get(target)?.push(await round(target));
    }
  }
  const profiled = new Map<Bundle, number[]>(bundles.map((target) => [target, []]));
  for (let index = 0; index < Math.min(rounds, 5); index++) {
    for (let offset = 0; offset < bundles.length; offset++) {
      const target = bundles[(index + offset) % bundles.length] as Bundle;
      profiled.get(target)?.push(profiledStartup(target));
    }
  }
  const medianOf = (target: Bundle, field: keyof Sample) =>
    median((samples.get(target) ?? []).map((sample) => sample[field] ?? Number.NaN));
  // Below a millisecond, the dispatch overhead subtracted from it outweighs what is left.
  const ms = (value: number) => (value < 1 ? "< 1 ms" : `${value.toFixed(1)} ms`);
  const [lazy, eager, minimal] = bundles as [Bundle, Bundle, Bundle];
  const firstAnswer = (target: Bundle) =>
    median((samples.get(target) ?? []).map((sample) => sample.evaluation + sample.firstHealth));

  console.log(
    `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim()}; ${rounds} rounds, medians.\n`,
  );
  console.log(
    "| Worker | bundle | gzipped | ratio to the baseline (gzipped) | of the bundle, the MCP SDK |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const target of bundles) {
    console.log(
      `| ${target.name} | ${target.kib.toFixed(2)} KiB | ${target.gzipKib.toFixed(2)} KiB | ${(target.gzipKib / minimal.gzipKib).toFixed(1)}× | ${target.sdkKib.toFixed(0)} KiB |`,
    );
  }
  console.log(
    "\n| Worker | startup (module evaluation) | first /healthz | startup + first /healthz | ratio to the baseline | warm /healthz |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const target of bundles) {
    console.log(
      `| ${target.name} | ${ms(medianOf(target, "evaluation"))} | ${ms(medianOf(target, "firstHealth"))} | ${ms(firstAnswer(target))} | ${(firstAnswer(target) / firstAnswer(minimal)).toFixed(2)}× | ${ms(medianOf(target, "warmHealth"))} |`,
    );
  }
  console.log(
    `\n| Worker | \`wrangler check startup\`: Active (median of ${Math.min(rounds, 5)}) |\n| --- | ---: |`,
  );
  for (const target of bundles) {
    console.log(`| ${target.name} | ${ms(median(profiled.get(target) ?? []))} |`);
  }
  console.log(
    "\n| Worker | first /mcp initialize of a fresh isolate (after its startup) | warm /mcp initialize | first − warm |",
  );
  console.log("| --- | ---: | ---: | ---: |");
  for (const target of [lazy, eager]) {
    const first = medianOf(target, "firstMcp");
    const warm = medianOf(target, "warmMcp");
    console.log(`| ${target.name} | ${ms(first)} | ${ms(warm)} | ${ms(first - warm)} |`);
  }
  console.log(
    `\nStartup of apps/edge: ${ms(medianOf(lazy, "evaluation"))}, ${(medianOf(lazy, "evaluation") / medianOf(eager, "evaluation")).toFixed(2)}× that with the SDK at startup (${ms(medianOf(eager, "evaluation"))}); the minimal Worker's: ${ms(medianOf(minimal, "evaluation"))}.`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
