// The delivery service against two PostgreSQL job queues, in one run: pg-boss (fetch → complete,
// one job at a time per worker) and graphile-worker (a no-op task), each in this process against
// one throwaway PostgreSQL server (scripts/postgres.mjs: fsync on, the server's defaults), and
// the service over HTTP as throughput.bench.ts runs it (src/main.ts in its own process, SQLite on
// a file, its default durability), with the bare Hono routes of throughput.bench.ts beside it as
// the ceiling of this HTTP stack, at 1 / 16 / 64 concurrent workers or agents. Each gets a
// warm-up, then ANCHOR_ROUNDS (default 7) rounds that alternate who goes first; the figures are
// medians of the rounds' rates and latencies pooled over the rounds. Jobs carry the JSON the
// service's claim-next answers with (its work item); pg-boss's completions store the service's
// 512-character artifact as their output. Where PostgreSQL cannot be started, it says why and
// measures the service alone.
// Run: `node --conditions=@task-context/source bench/queue-anchors.bench.ts` in packages/server
// (part of `pnpm --filter @task-context/server run bench`).
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import type { ClaimView } from "@task-context/contract";
import {
  type Postgres,
  PostgresUnavailableError,
  startPostgres,
} from "../../../scripts/postgres.mjs";
import { completeBody } from "./cycle.ts";
import {
  type Contestant,
  graphileWorker,
  loadAverage,
  overHttp,
  pgBoss,
  postgresSettings,
  type Results,
  runRounds,
  summary,
} from "./job-queues.ts";
import { startBare, startService } from "./service-load.ts";

const rounds = Number(process.env.ANCHOR_ROUNDS ?? 7);
const levels = [
  { workers: 1, count: 300 },
  { workers: 16, count: 1500 },
  { workers: 64, count: 3000 },
];
const maxWorkers = Math.max(...levels.map((level) => level.workers));
const loadBefore = loadAverage();

// The service, started as throughput.bench.ts starts it.
const folder = mkdtempSync(join(tmpdir(), "task-context-anchors-bench-"));
const { service, stop: stopService } = await startService(folder);
const [sampleToken = ""] = await service.prepare(1, 1);
const sampleClaimText = (await service.client.send("POST", "/v1/inbox/claim-next", sampleToken))
  .text;
const sampleClaim = JSON.parse(sampleClaimText) as ClaimView;
const sampleCompletion = await service.client.send(
  "POST",
  `/v1/work-items/${sampleClaim.work_item.id}/complete`,
  sampleToken,
  completeBody(sampleClaim.lease.attempt),
);
const payload = (index: number) => ({ ...sampleClaim.work_item, id: `anchor-${index}` });
const output = completeBody(1).artifact;

const ours = overHttp("ours", service, stopService);
// The ceiling of any service on this HTTP stack and machine: bare Hono routes answering the same
// JSON with nothing in between, driven by the same client.
const { bare, server: bareServer } = await startBare(sampleClaimText, sampleCompletion.text);
const ceiling = overHttp("bare HTTP", bare, () => bareServer.stop());

let postgres: Postgres | undefined;
let without: string | undefined;
const contestants: Contestant[] = [ours, ceiling];
try {
  postgres = await startPostgres({ settings: { max_connections: 4 * maxWorkers + 20 } });
  const jobs = { maxWorkers, payload, output };
  contestants.push(await graphileWorker(postgres.url, jobs), await pgBoss(postgres.url, jobs));
} catch (error) {
  without =
    error instanceof PostgresUnavailableError
      ? error.message
      : `it did not start: ${String(error instanceof Error ? error.message : error).split("\n")[0]}`;
  if (!(error instanceof PostgresUnavailableError)) console.error(error);
}

const settings =
  postgres === undefined ? "" : await postgresSettings(postgres.url, postgres.version);
let results: Results;
try {
  results = await runRounds(contestants, levels, rounds);
} finally {
  for (const contestant of contestants) await contestant.close();
  await postgres?.stop();
  rmSync(folder, { recursive: true, force: true });
}

const { rate, spread, pooled, ratio: ratioOf } = summary(results);
const ratio = (workers: number, anchor: string) => ratioOf("ours", anchor, workers);

console.log(
  `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown"}), ${settings || `no PostgreSQL: ${without}`}; load average ${loadBefore} before, ${loadAverage()} after (this benchmark's own processes count in it).`,
);
console.log(
  `Medians of ${rounds} alternating rounds of ${levels.map((level) => level.count).join(" / ")} jobs at ${levels.map((level) => level.workers).join(" / ")} workers (min–max in brackets); latency p50 / p99 pooled over the rounds. Job payload ${JSON.stringify(payload(0)).length} B of JSON.\n`,
);
if (without !== undefined) {
  console.log(
    `PostgreSQL cannot be started here (${without}): our service alone, without the anchors.\n`,
  );
  console.log(
    "| agents | ours cycles/s | bare HTTP cycles/s | ours ÷ bare HTTP | ours cycle p50 / p99 |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: |");
  for (const { workers } of levels) {
    console.log(
      `| ${workers} | ${spread("ours", workers)} | ${spread("bare HTTP", workers)} | ${ratio(workers, "bare HTTP")} | ${pooled("ours", workers, "cycle")} |`,
    );
  }
} else {
  console.log(
    "| workers / agents | ours cycles/s | graphile-worker jobs/s | pg-boss cycles/s | ours ÷ graphile-worker | ours ÷ pg-boss | ours cycle p50 / p99 | graphile-worker cycle p50 / p99 | pg-boss cycle p50 / p99 |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const { workers } of levels) {
    console.log(
      `| ${workers} | ${spread("ours", workers)} | ${spread("graphile-worker", workers)} | ${spread("pg-boss", workers)} | ${ratio(workers, "graphile-worker")} | ${ratio(workers, "pg-boss")} | ${pooled("ours", workers, "cycle")} | ${pooled("graphile-worker", workers, "cycle")} | ${pooled("pg-boss", workers, "cycle")} |`,
    );
  }
  console.log(
    "\nThe ceiling: bare Hono routes on the same HTTP stack, answering the same JSON with nothing in between, driven by the same client in the same rounds:\n",
  );
  console.log(
    "| workers / agents | bare HTTP cycles/s | bare HTTP ÷ graphile-worker | ours ÷ bare HTTP | bare HTTP cycle p50 / p99 |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: |");
  for (const { workers } of levels) {
    console.log(
      `| ${workers} | ${spread("bare HTTP", workers)} | ${(rate("bare HTTP", workers) / rate("graphile-worker", workers)).toFixed(2)}× | ${ratio(workers, "bare HTTP")} | ${pooled("bare HTTP", workers, "cycle")} |`,
    );
  }
  console.log("\nEach step alone (graphile-worker does not wait for its completions):\n");
  console.log(
    "| workers / agents | ours claim-next p50 / p99 | ours complete p50 / p99 | pg-boss fetch p50 / p99 | pg-boss complete p50 / p99 |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: |");
  for (const { workers } of levels) {
    console.log(
      `| ${workers} | ${pooled("ours", workers, "claim")} | ${pooled("ours", workers, "complete")} | ${pooled("pg-boss", workers, "claim")} | ${pooled("pg-boss", workers, "complete")} |`,
    );
  }
}
