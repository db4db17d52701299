// The contestants of the benchmarks against PostgreSQL job queues (queue-anchors.bench.ts,
// postgres.bench.ts) and how their rounds are run and summed up: pg-boss (fetch → complete, one job
// at a time per worker) and graphile-worker (a no-op task), each in the benchmark's process against
// one PostgreSQL server, and anything driven over HTTP as service-load.ts drives the service.
import { EventEmitter } from "node:events";
import { loadavg } from "node:os";
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
import { latency, round, type Target } from "./service-load.ts";

const now = () => performance.now();

/** One round's rate and latencies (milliseconds). */
export interface Measured {
  perSecond: number;
  /** A worker's whole cycle: from asking for a job to asking for the next. */
  cycle: number[];
  /** Claim-next / fetch alone, and complete alone, where they can be timed apart. */
  claim: number[];
  complete: number[];
}

export interface Contestant {
  name: string;
  round(workers: number, count: number): Promise<Measured>;
  close(): Promise<void>;
}

/** What the queues' jobs are made of, and the most workers a round uses. */
export interface JobShape {
  maxWorkers: number;
  /** The payload of job `index`. */
  payload: (index: number) => object;
  /** What a pg-boss completion stores as the job's output. */
  output: object;
}

/**
 * Claim-next → complete cycles over HTTP on `target`, the workers and the items split evenly over
 * `runs` runs (default 1) that are worked at the same time.
 */
export const overHttp = (
  name: string,
  target: Target,
  stop: () => Promise<unknown>,
  { runs = 1 }: { runs?: number } = {},
): Contestant => ({
  name,
  async round(workers, count) {
    const start = now();
    const parts = await Promise.all(
      Array.from({ length: runs }, () =>
        round(target, "cycle", Math.ceil(workers / runs), Math.ceil(count / runs)),
      ),
    );
    const done = parts.reduce((sum, part) => sum + part.count, 0);
    const latencies = parts.map((part) => part.latencies);
    return {
      perSecond: runs === 1 ? (parts[0]?.perSecond ?? 0) : done / ((now() - start) / 1000),
      cycle: latencies.flatMap((each) => each.cycle),
      claim: latencies.flatMap((each) => each.claim),
      complete: latencies.flatMap((each) => each.complete),
    };
  },
  async close() {
    target.close();
    await stop();
  },
});

/** pg-boss: each worker fetches one job and completes it, then the next. */
export async function pgBoss(url: string, jobs: JobShape): Promise<Contestant> {
  const { maxWorkers, payload, output } = jobs;
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
export async function graphileWorker(url: string, jobs: JobShape): Promise<Contestant> {
  const { maxWorkers, payload } = jobs;
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

/** The rounds of every contestant at each level, as `name workers` → each round's measure. */
export type Results = Map<string, Measured[]>;

/**
 * Runs, at each level, a warm-up of each contestant, then `rounds` rounds that rotate who goes
 * first (so that none always follows another).
 */
export async function runRounds(
  contestants: readonly Contestant[],
  levels: ReadonlyArray<{ workers: number; count: number }>,
  rounds: number,
): Promise<Results> {
  const results: Results = new Map();
  for (const { workers, count } of levels) {
    for (const contestant of contestants) await contestant.round(workers, Math.min(count, 200));
    for (let index = 0; index < rounds; index++) {
      const order = contestants.map(
        (_, at) => contestants[(at + index) % contestants.length] as Contestant,
      );
      for (const contestant of order) {
        const key = `${contestant.name} ${workers}`;
        results.set(key, [...(results.get(key) ?? []), await contestant.round(workers, count)]);
      }
    }
  }
  return results;
}

/** `12 345` */
export const thousands = (value: number) =>
  Math.round(value).toLocaleString("en-US").replaceAll(",", " ");

/** How to read the results: rates, their spread, pooled latencies and ratios. */
export function summary(results: Results) {
  const rate = (name: string, workers: number) =>
    median((results.get(`${name} ${workers}`) ?? []).map((result) => result.perSecond));
  return {
    rate,
    /** The median rate, with the rounds' min–max in brackets. */
    spread(name: string, workers: number) {
      const rates = (results.get(`${name} ${workers}`) ?? []).map((result) => result.perSecond);
      return `${thousands(rate(name, workers))} (${thousands(Math.min(...rates))}–${thousands(Math.max(...rates))})`;
    },
    /** p50 / p99 of a kind of latency, pooled over the rounds. */
    pooled(name: string, workers: number, kind: "cycle" | "claim" | "complete") {
      return latency((results.get(`${name} ${workers}`) ?? []).flatMap((result) => result[kind]));
    },
    /** `1.23×`: the rate of `name` over that of `baseline`. */
    ratio(name: string, baseline: string, workers: number) {
      return `${(rate(name, workers) / rate(baseline, workers)).toFixed(2)}×`;
    },
  };
}

/** The machine's load averages over 1, 5 and 15 minutes: `0.91, 1.08, 1.94`. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");

/** The server's version and the settings that decide what a commit costs. */
export async function postgresSettings(url: string, version: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ fsync: string; sync: string; wal: string }>(
    "select current_setting('fsync') as fsync, current_setting('synchronous_commit') as sync, current_setting('wal_sync_method') as wal",
  );
  await client.end();
  return `PostgreSQL ${version} (fsync ${rows[0]?.fsync}, synchronous_commit ${rows[0]?.sync}, wal_sync_method ${rows[0]?.wal})`;
}
