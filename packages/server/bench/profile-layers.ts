// Where a service's CPU went, by layer of the request path, from a CPU profile of its process
// (`BENCH_PROFILE=<folder>` of throughput.bench.ts writes one). Each sample is given to the
// innermost frame of a known layer on its stack (our source, Hono, the Node adapter, the store,
// zod, …); a sample with none above it is the Node runtime's own (the HTTP parser, sockets,
// streams). Samples before the first request are left out (module loading, opening the store).
// Run (in packages/server): `../../node_modules/node/bin/node bench/profile-layers.ts
// <file.cpuprofile> [CPU ms per cycle]`; with the CPU per cycle, each layer's share is also shown
// in ms per cycle.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The layers, the first whose pattern matches a frame's URL wins. */
const layers: Array<[string, RegExp]> = [
  [
    "store: src/sql, the delivery machine, node:sqlite",
    /server\/src\/(sql|delivery|postgres)\/|node-sqlite\.ts|node_modules\/postgres\//,
  ],
  ["execution and operations", /server\/src\/(execution|operations)\//],
  ["Node adapter: @hono/node-server, src/node-http", /server\/src\/node-http\/|@hono\/node-server/],
  ["routes and middleware: src/http", /server\/src\/(http\/|app\.ts|node\.ts)/],
  ["Hono: router, compose, context, secure headers", /node_modules\/hono\//],
  ["contract checks: zod", /packages\/(contract|protocols)\/|node_modules\/zod\//],
  ["core: tracing, sha256", /packages\/core\/|@opentelemetry/],
  ["other", /packages\/|node_modules\//],
];

const [file, cycleMs] = process.argv.slice(2);
if (file === undefined) throw new Error("Name a .cpuprofile file.");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);

/** The stack of a sample, innermost first. */
function* stack(id: number | undefined): Generator<ProfileNode> {
  for (let at = id; at !== undefined; at = parent.get(at)) yield nodes.get(at) as ProfileNode;
}

const special = new Set(["(idle)", "(garbage collector)", "(program)"]);
function layerOf(id: number): string {
  const leaf = nodes.get(id)?.callFrame.functionName ?? "";
  if (special.has(leaf)) return leaf;
  for (const node of stack(id)) {
    const found = layers.find(([, pattern]) => pattern.test(node.callFrame.url));
    if (found !== undefined) return found[0];
  }
  return "Node runtime alone: HTTP parser, sockets, streams";
}

const first = profile.samples.findIndex((id) =>
  [...stack(id)].some((node) => node.callFrame.functionName === "answerRequest"),
);
const spent = new Map<string, number>();
for (let index = Math.max(first, 0); index < profile.samples.length - 1; index++) {
  const layer = layerOf(profile.samples[index] as number);
  // A sample lasts until the next one.
  spent.set(layer, (spent.get(layer) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
}
const idle = spent.get("(idle)") ?? 0;
spent.delete("(idle)");
const busy = [...spent.values()].reduce((sum, value) => sum + value, 0);
console.log(
  `${(busy / 1e6).toFixed(2)} s busy, ${(idle / 1e6).toFixed(2)} s idle, from the first request on\n`,
);
console.log(`| layer | share of the busy time |${cycleMs === undefined ? "" : " ms per cycle |"}`);
console.log(`| --- | ---: |${cycleMs === undefined ? "" : " ---: |"}`);
for (const [layer, micros] of [...spent].sort((a, b) => b[1] - a[1])) {
  const share = micros / busy;
  const perCycle = cycleMs === undefined ? "" : ` ${(share * Number(cycleMs)).toFixed(3)} |`;
  console.log(`| ${layer} | ${(100 * share).toFixed(1)} % |${perCycle}`);
}
