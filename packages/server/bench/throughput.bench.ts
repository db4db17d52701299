// Throughput of the delivery service on Node with SQLite on a file: claim-next → complete cycles
// per second and the latency of each request at 1, 16 and 64 concurrent agents, against bare
// Hono routes on the same server stack answering the same JSON, measured in the same run in
// alternating rounds. The service (src/main.ts, the `task-context-server` bin) and the baseline each
// run in their own process; this process only generates the load.
// Each cycle round also accounts the service's CPU per cycle (its process's user + system time from
// /proc, the round's setup left out): a figure that depends little on how busy the machine is.
// THROUGHPUT_BEFORE=<another checkout>/packages/server/src/main.ts measures that service too, in
// the same rounds ("before": e.g. a worktree of main); THROUGHPUT_AGENTS=16,64 picks the levels;
// THROUGHPUT_POSTGRES=1 serves each service from its own database on one throwaway PostgreSQL
// (scripts/postgres.mjs) instead of an SQLite file.
// Run: `pnpm --filter ./packages/server run bench` (BENCH_PROFILE=<folder> writes the service's CPU
// profile there).
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "@task-context/bench-kit";
import type { ClaimView } from "@task-context/contract";
import postgres from "postgres";
import { type Postgres, startPostgres } from "../../../scripts/postgres.mjs";
import { completeBody } from "./cycle.ts";
import {
  costedRound,
  latency,
  type Phase,
  round,
  startBare,
  startService,
  type Target,
} from "./service-load.ts";

const folder = mkdtempSync(join(tmpdir(), "task-context-edge-bench-"));
const profile = process.env.BENCH_PROFILE;
const beforeEntry = process.env.THROUGHPUT_BEFORE;
const loadBefore = loadavg().map((value) => value.toFixed(2));
const database: Postgres | undefined =
  process.env.THROUGHPUT_POSTGRES === "1" ? await startPostgres() : undefined;

/** Where a service keeps its data: an SQLite file in `folder`, or a new PostgreSQL database. */
async function storage(name: string): Promise<Record<string, string>> {
  if (database === undefined) return {};
  const admin = postgres(database.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(database.url);
  url.pathname = `/${name}`;
  return { TASK_CONTEXT_DATABASE_URL: url.href };
}

const {
  service,
  stop: stopService,
  pids: servicePids,
} = await startService(folder, {
  environment: await storage("service"),
  nodeOptions: profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`],
});
const before =
  beforeEntry === undefined
    ? undefined
    : await startService(mkdtempSync(join(folder, "before-")), {
        entry: beforeEntry,
        environment: await storage("before"),
      });
if (before !== undefined) before.service.name = "before";
/** The services whose CPU per cycle is accounted, by name. */
const costed = new Map<string, () => number[]>([
  ["service", servicePids],
  ...(before === undefined ? [] : [["before", before.pids] as const]),
]);

// One cycle on the service gives the JSON the bare routes answer with.
const [sampleToken = ""] = await service.prepare(1, 1);
const sampleClaim = await service.client.send("POST", "/v1/inbox/claim-next", sampleToken);
const sampleLease = JSON.parse(sampleClaim.text) as ClaimView;
const sampleCompletion = await service.client.send(
  "POST",
  `/v1/work-items/${sampleLease.work_item.id}/complete`,
  sampleToken,
  completeBody(1),
);
const { bare, server: bareServer } = await startBare(sampleClaim.text, sampleCompletion.text);

const chosen = process.env.THROUGHPUT_AGENTS?.split(",").map(Number);
const levels = [
  { agents: 1, count: 300 },
  { agents: 16, count: 1500 },
  { agents: 64, count: 3000 },
].filter(({ agents }) => chosen === undefined || chosen.includes(agents));
const targets: Target[] = [service, bare, ...(before === undefined ? [] : [before.service])];
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const phases: Phase[] = ["cycle", "claim-next", "complete"];
const cycleRows: string[] = [];
const requestRows: string[] = [];
const cpuRows: string[] = [];

try {
  for (const { agents, count } of levels) {
    const results = new Map<string, Array<Awaited<ReturnType<typeof round>>>>();
    const cpu = new Map<string, number[]>();
    for (const phase of phases) {
      for (const target of targets) await round(target, phase, agents, Math.min(count, 200));
    }
    for (let index = 0; index < rounds; index++) {
      for (const phase of phases) {
        // Rotate which goes first, so that none always follows another.
        const order = targets.map((_, at) => targets[(at + index) % targets.length] as Target);
        for (const target of order) {
          const key = `${target.name} ${phase}`;
          const pids = phase === "cycle" ? costed.get(target.name) : undefined;
          let result: Awaited<ReturnType<typeof round>>;
          if (pids === undefined) result = await round(target, phase, agents, count);
          else {
            const costedResult = await costedRound(target, pids, agents, count);
            cpu.set(target.name, [...(cpu.get(target.name) ?? []), costedResult.cpuMs]);
            result = costedResult;
          }
          results.set(key, [...(results.get(key) ?? []), result]);
        }
      }
    }
    const rate = (key: string) =>
      median((results.get(key) ?? []).map((result) => result.perSecond));
    const cpuOf = (name: string) => {
      const values = cpu.get(name) ?? [];
      return values.length === 0
        ? "–"
        : `${median(values).toFixed(3)} (${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)})`;
    };
    cpuRows.push(
      `| ${agents} | ${cpuOf("service")} | ${cpuOf("before")} | ${rate("service cycle").toFixed(0)} | ${before === undefined ? "–" : rate("before cycle").toFixed(0)} |`,
    );
    const pooled = (key: string, kind: "claim" | "complete") =>
      (results.get(key) ?? []).flatMap((result) => result.latencies[kind]);
    const cycles = { service: rate("service cycle"), bare: rate("bare cycle") };
    cycleRows.push(
      `| ${agents} | ${cycles.service.toFixed(0)} | ${cycles.bare.toFixed(0)} | ${((100 * cycles.service) / cycles.bare).toFixed(0)} % | ${latency(pooled("service cycle", "claim"))} | ${latency(pooled("service cycle", "complete"))} | ${latency(pooled("bare cycle", "claim"))} | ${latency(pooled("bare cycle", "complete"))} |`,
    );
    for (const phase of ["claim-next", "complete"] as const) {
      const service = rate(`service ${phase}`);
      const baseline = rate(`bare ${phase}`);
      const kind = phase === "claim-next" ? "claim" : "complete";
      requestRows.push(
        `| ${agents} | ${phase} | ${service.toFixed(0)} | ${baseline.toFixed(0)} | ${((100 * service) / baseline).toFixed(0)} % | ${latency(pooled(`service ${phase}`, kind))} | ${latency(pooled(`bare ${phase}`, kind))} |`,
      );
    }
  }
} finally {
  for (const target of targets) target.close();
  await stopService();
  await before?.stop();
  await bareServer.stop();
  await database?.stop();
  rmSync(folder, { recursive: true, force: true });
}

console.log(
  `JSON: claim-next answer ${sampleClaim.text.length} B, complete request ${JSON.stringify(completeBody(1)).length} B, answer ${sampleCompletion.text.length} B; medians of ${rounds} alternating rounds; latency p50 / p99 pooled over the rounds.\n`,
);
console.log(
  "| agents | service cycles/s | bare cycles/s | service ÷ bare | service claim-next p50 / p99 | service complete p50 / p99 | bare claim-next p50 / p99 | bare complete p50 / p99 |",
);
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const row of cycleRows) console.log(row);
console.log(
  "\nEach request alone (claim-next: items on offer; complete: leases claimed beforehand):\n",
);
console.log(
  "| agents | request | service req/s | bare req/s | service ÷ bare (target ≥ 50 %) | service p50 / p99 | bare p50 / p99 |",
);
console.log("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
for (const row of requestRows) console.log(row);
console.log(
  `\nThe service's CPU per cycle (its process's user + system time over a cycle round, setup left out; ms, median and min–max of the rounds) and cycles/s, on ${database === undefined ? "SQLite" : `PostgreSQL ${database.version}`}; load average ${loadBefore.join(", ")} before, ${loadavg()
    .map((value) => value.toFixed(2))
    .join(", ")} after:\n`,
);
console.log(
  "| agents | service CPU ms / cycle | before CPU ms / cycle | service cycles/s | before cycles/s |",
);
console.log("| ---: | ---: | ---: | ---: | ---: |");
for (const row of cpuRows) console.log(row);
