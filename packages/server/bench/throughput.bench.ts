// Throughput of the delivery service on Node with SQLite on a file: claim-next → complete cycles
// per second and the latency of each request at 1, 16 and 64 concurrent agents, against bare
// Hono routes on the same server stack answering the same JSON, measured in the same run in
// alternating rounds. The service (src/main.ts, the `task-context-server` bin) and the baseline each
// run in their own process; this process only generates the load.
// Run: `pnpm --filter ./packages/server run bench` (BENCH_PROFILE=<folder> writes the service's CPU
// profile there).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "@task-context/bench-kit";
import type { ClaimView } from "@task-context/contract";
import { completeBody } from "./cycle.ts";
import { latency, type Phase, round, startBare, startService } from "./service-load.ts";

const folder = mkdtempSync(join(tmpdir(), "task-context-edge-bench-"));
const profile = process.env.BENCH_PROFILE;

const { service, stop: stopService } = await startService(folder, {
  nodeOptions: profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`],
});

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

const levels = [
  { agents: 1, count: 300 },
  { agents: 16, count: 1500 },
  { agents: 64, count: 3000 },
];
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const phases: Phase[] = ["cycle", "claim-next", "complete"];
const cycleRows: string[] = [];
const requestRows: string[] = [];

try {
  for (const { agents, count } of levels) {
    const results = new Map<string, Array<Awaited<ReturnType<typeof round>>>>();
    for (const phase of phases) {
      await round(service, phase, agents, Math.min(count, 200));
      await round(bare, phase, agents, Math.min(count, 200));
    }
    for (let index = 0; index < rounds; index++) {
      for (const phase of phases) {
        // Alternate which goes first, so that neither always follows the other.
        const order = index % 2 === 0 ? [service, bare] : [bare, service];
        for (const target of order) {
          const key = `${target.name} ${phase}`;
          results.set(key, [
            ...(results.get(key) ?? []),
            await round(target, phase, agents, count),
          ]);
        }
      }
    }
    const rate = (key: string) =>
      median((results.get(key) ?? []).map((result) => result.perSecond));
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
  service.close();
  bare.close();
  await stopService();
  await bareServer.stop();
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
