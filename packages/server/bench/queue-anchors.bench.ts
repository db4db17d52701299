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
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "@task-context/bench-kit";
import {
  type WorkerEvents as GraphileEvents,
  Logger as GraphileLogger,
  makeWorkerUtils,
  run as runGraphile,
  type WorkerUtils,
} from "graphile-worker";
import pg from "pg";
import { PgBoss } from "pg-boss";
import {
  type Postgres,
  PostgresUnavailableError,
  startPostgres,
} from "../../../scripts/postgres.mjs";
import type { ClaimView } from "../src/contract/schemas.ts";
import { completeBody } from "./cycle.ts";
import { latency, round, startBare, startService, type Target } from "./service-load.ts";

const now = () => performance.now();
const rounds = Number(process.env.ANCHOR_ROUNDS ?? 7);
const levels = [
  { workers: 1, count: 300 },
  { workers: 16, count: 1500 },
  { workers: 64, count: 3000 },
];
const maxWorkers = Math.max(...levels.map((level) => level.workers));
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");
const loadBefore = load();

/** One round's rate and latencies (milliseconds). */
interface Measured {
  perSecond: number;
  /** A worker's whole cycle: from asking for a job to asking for the next. */
  cycle: number[];
  /** Claim-next / fetch alone, and complete alone, where they can be timed apart. */
  claim: number[];
  complete: number[];
}

interface Contestant {
  name: string;
  round(workers: number, count: number): Promise<Measured>;
  close(): Promise<void>;
}

// The service, started as throughput.bench.ts starts it.
const folder = mkdtempSync(join(tmpdir(), "task-context-anchors-bench-"));
const { service, server } = await startService(folder);
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

/** Claim-next → complete cycles over HTTP on `target`. */
const overHttp = (name: string, target: Target, stop: () => Promise<unknown>): Contestant => ({
  name,
  async round(workers, count) {
    const { perSecond, latencies } = await round(target, "cycle", workers, count);
    return { perSecond, ...latencies };
  },
  async close() {
    target.client.close();
    await stop();
  },
});
const ours = overHttp("ours", service, () => server.stop());
// The ceiling of any service on this HTTP stack and machine: bare Hono routes answering the same
// JSON with nothing in between, driven by the same client.
const { bare, server: bareServer } = await startBare(sampleClaimText, sampleCompletion.text);
const ceiling = overHttp("bare HTTP", bare, () => bareServer.stop());

/** pg-boss: each worker fetches one job and completes it, then the next. */
async function pgBoss(url: string): Promise<Contestant> {
  const queue = "anchor";
  const boss = new PgBoss({
    connectionString: url,
    max: maxWorkers + 2,
    // Its background maintenance and instance registry would only add work to some rounds.
    supervise: false,
    schedule: false,
    registerInstance: false,
  });
  boss.on("error", (error) => console.error("pg-boss:", error));
  await boss.start();
  await boss.createQueue(queue);
  return {
    name: "pg-boss",
    async round(workers, count) {
      await boss.insert(
        queue,
        Array.from({ length: count }, (_, index) => ({ data: payload(index) })),
      );
      const measured: Measured = { perSecond: 0, cycle: [], claim: [], complete: [] };
      let started = 0;
      const start = now();
      await Promise.all(
        Array.from({ length: workers }, async () => {
          while (started < count) {
            started += 1;
            const before = now();
            const [job] = await boss.fetch(queue);
            const fetched = now();
            if (job === undefined) throw new Error("pg-boss: a job is missing");
            await boss.complete(queue, job.id, output);
            const done = now();
            measured.claim.push(fetched - before);
            measured.complete.push(done - fetched);
            measured.cycle.push(done - before);
          }
        }),
      );
      measured.perSecond = count / ((now() - start) / 1000);
      return measured;
    },
    close: () => boss.stop({ graceful: false }),
  };
}

/**
 * graphile-worker: a runner of `workers` concurrent no-op jobs on a pool of connections that
 * stays open (and warm) across rounds; a round times the runner from its first request for a
 * job until the table of jobs is empty again. Its completions are sent without waiting for them
 * (its design), so only a worker's whole cycle is timed: job start to its next job's start.
 */
async function graphileWorker(url: string): Promise<Contestant> {
  const pool = new pg.Pool({ connectionString: url, max: maxWorkers + 2 });
  const report = (error: Error) => console.error("graphile-worker's pool:", error);
  pool.on("error", report);
  pool.on("connect", (client) => client.on("error", report));
  await Promise.all(Array.from({ length: maxWorkers + 2 }, () => pool.query("select 1")));
  const logger = new GraphileLogger(() => (level, message) => {
    if (level === "error") console.error("graphile-worker:", message);
  });
  const utils: WorkerUtils = await makeWorkerUtils({ pgPool: pool, logger });
  await utils.migrate();
  const jobsLeft = async () =>
    Number(
      (await pool.query<{ count: string }>("select count(*) from graphile_worker._private_jobs"))
        .rows[0]?.count,
    );
  return {
    name: "graphile-worker",
    async round(workers, count) {
      await utils.addJobs(
        Array.from({ length: count }, (_, index) => ({
          identifier: "anchor",
          payload: payload(index),
        })),
      );
      const events = new EventEmitter() as GraphileEvents;
      const measured: Measured = { perSecond: 0, cycle: [], claim: [], complete: [] };
      let start: number | undefined;
      let completed = 0;
      const lastStart = new Map<unknown, number>();
      let ran = (_error?: unknown) => {};
      const allRan = new Promise<void>((resolve, reject) => {
        ran = (error) => (error === undefined ? resolve() : reject(error));
      });
      events.on("worker:getJob:start", () => {
        start ??= now();
      });
      events.on("job:start", ({ worker }) => {
        const at = now();
        const previous = lastStart.get(worker);
        if (previous !== undefined) measured.cycle.push(at - previous);
        lastStart.set(worker, at);
      });
      events.on("job:complete", ({ error }) => {
        if (error !== undefined && error !== null) ran(error);
        completed += 1;
        if (completed === count) ran();
      });
      const runner = await runGraphile({
        pgPool: pool,
        concurrency: workers,
        noHandleSignals: true,
        logger,
        events,
        taskList: { anchor: async () => {} },
      });
      await allRan;
      // The last completions are on their way to the database.
      while ((await jobsLeft()) > 0) await new Promise((resolve) => setTimeout(resolve, 2));
      const end = now();
      await runner.stop();
      measured.perSecond = count / ((end - (start ?? end)) / 1000);
      return measured;
    },
    async close() {
      await utils.release();
      await pool.end();
    },
  };
}

let postgres: Postgres | undefined;
let without: string | undefined;
const contestants: Contestant[] = [ours, ceiling];
try {
  postgres = await startPostgres({ settings: { max_connections: 4 * maxWorkers + 20 } });
  contestants.push(await graphileWorker(postgres.url), await pgBoss(postgres.url));
} catch (error) {
  without =
    error instanceof PostgresUnavailableError
      ? error.message
      : `it did not start: ${String(error instanceof Error ? error.message : error).split("\n")[0]}`;
  if (!(error instanceof PostgresUnavailableError)) console.error(error);
}

let settings = "";
if (postgres !== undefined) {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  const { rows } = await client.query<{ fsync: string; sync: string; wal: string }>(
    "select current_setting('fsync') as fsync, current_setting('synchronous_commit') as sync, current_setting('wal_sync_method') as wal",
  );
  await client.end();
  settings = `PostgreSQL ${postgres.version} (fsync ${rows[0]?.fsync}, synchronous_commit ${rows[0]?.sync}, wal_sync_method ${rows[0]?.wal})`;
}

const results = new Map<string, Measured[]>();
try {
  for (const { workers, count } of levels) {
    for (const contestant of contestants) await contestant.round(workers, Math.min(count, 200));
    for (let index = 0; index < rounds; index++) {
      // Rotate who goes first, so that none always follows another.
      const order = contestants.map(
        (_, at) => contestants[(at + index) % contestants.length] as Contestant,
      );
      for (const contestant of order) {
        const key = `${contestant.name} ${workers}`;
        results.set(key, [...(results.get(key) ?? []), await contestant.round(workers, count)]);
      }
    }
  }
} finally {
  for (const contestant of contestants) await contestant.close();
  await postgres?.stop();
  rmSync(folder, { recursive: true, force: true });
}

const thousands = (value: number) => Math.round(value).toLocaleString("en-US").replaceAll(",", " ");
const rate = (name: string, workers: number) =>
  median((results.get(`${name} ${workers}`) ?? []).map((result) => result.perSecond));
const spread = (name: string, workers: number) => {
  const rates = (results.get(`${name} ${workers}`) ?? []).map((result) => result.perSecond);
  return `${thousands(rate(name, workers))} (${thousands(Math.min(...rates))}–${thousands(Math.max(...rates))})`;
};
const pooled = (name: string, workers: number, kind: "cycle" | "claim" | "complete") =>
  latency((results.get(`${name} ${workers}`) ?? []).flatMap((result) => result[kind]));
const ratio = (workers: number, anchor: string) =>
  `${(rate("ours", workers) / rate(anchor, workers)).toFixed(2)}×`;

console.log(
  `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown"}), ${settings || `no PostgreSQL: ${without}`}; load average ${loadBefore} before, ${load()} after (this benchmark's own processes count in it).`,
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
