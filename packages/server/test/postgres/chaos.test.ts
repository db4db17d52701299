// The queue checker on two Node instances while PostgreSQL itself fails under them
// (test/checker/postgres-chaos.ts): the service's backends terminated again and again, every
// connection slot held by another client, the run's row and a whole table locked by a session
// idle in its transaction, the server restarted (fast, then as after a crash), and a retry storm.
// Each scenario on a new database of this file's own server (its restarts and its slots are the
// scenarios' to take); every item completed exactly once, none lost, no stale completion
// accepted, every crashed lease delivered again, and only the server errors the fault explains.
// The benchmark runs them at scale: bench/postgres-chaos.bench.ts.
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { type Postgres, startPostgres } from "../../../../scripts/postgres.mjs";
import type { CheckResult } from "../checker/check.ts";
import { expectNoAnomaly } from "../checker/expect-checked.ts";
import {
  type ChaosScenarioName,
  chaosTolerated,
  chaosWorkload,
  ciChaosSizes,
} from "../checker/postgres-chaos.ts";
import { runWorkload, type WorkloadResult } from "../checker/workload.ts";
import { ciChaosWorkload } from "../checker/workloads.ts";
import { createDatabase } from "./databases.ts";
import { reason, title } from "./services.ts";

const seed = Number(process.env.CHECKER_SEED ?? 20_261_122);
const instances = 2;

let server: Promise<Postgres> | undefined;
afterAll(async () => {
  if (server !== undefined) await (await server).stop();
});

/** Runs `scenario`'s CI workload on a new database and checks it: the result and the check. */
async function runScenario(
  scenario: ChaosScenarioName,
): Promise<{ result: WorkloadResult; checked: CheckResult }> {
  // Few connection slots, so that another client can hold all of them (the pool scenario).
  server ??= startPostgres({ settings: { max_connections: 44 } });
  const postgres = await server;
  const database = await createDatabase(postgres.url);
  onTestFinished(() => database.drop());
  const rerun = `seed ${seed}: rerun with CHECKER_SEED=${seed} vitest run test/postgres/chaos.test.ts -t ${scenario}`;
  const result = await runWorkload(
    chaosWorkload(
      scenario,
      { ...ciChaosWorkload, seed },
      { server: postgres, databaseUrl: database.url, instances },
      ciChaosSizes[scenario],
    ),
  ).catch((error: unknown) => {
    throw new Error(`${rerun}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const checked = expectNoAnomaly(result, rerun, {
    tolerated: chaosTolerated[scenario],
    everyFault: false,
  });
  expect(result.history.faults.length, rerun).toBe(ciChaosSizes[scenario].rounds);
  return { result, checked };
}

/** The count a fault's sentence names before `what` ("terminated 6 connections" → 6). */
const countIn = (sentence: string, what: string) =>
  Number(new RegExp(`(\\d+) ${what}`).exec(sentence)?.[1] ?? Number.NaN);

describe.skipIf(reason !== undefined)(
  title("the queue checker on two Node instances while PostgreSQL fails under them"),
  () => {
    it(`terminate: completes every item exactly once while the service's backends are terminated again and again (seed ${seed})`, {
      timeout: 120_000,
    }, async () => {
      const { result } = await runScenario("terminate");
      for (const fault of result.history.faults) {
        expect(countIn(fault.what, "connections"), fault.what).toBeGreaterThan(0);
      }
    });

    // Its fault lasts until agents were answered 3 errors: at times ~30 s on a quiet machine
    // (5 s at others; the agents, idle, reach the database rarely), so 3 × that under CI's load.
    it(`pool: completes every item exactly once with 2 connections an instance, and while another client holds every slot (seed ${seed})`, {
      timeout: 300_000,
    }, async () => {
      const { result, checked } = await runScenario("pool");
      const [fault] = result.history.faults;
      expect(countIn(fault?.what ?? "", "free connection slots")).toBeGreaterThan(0);
      // The service could not connect, and said so: 500 INTERNAL_ERROR, nothing else.
      expect(Object.keys(checked.errors.answered)).toEqual(["500 INTERNAL_ERROR"]);
      expect(checked.errors.answered["500 INTERNAL_ERROR"]).toBeGreaterThanOrEqual(3);
    });

    it(`locks: completes every item exactly once while a session idle in its transaction holds the run's row, then a table (seed ${seed})`, {
      timeout: 120_000,
    }, async () => {
      const { checked } = await runScenario("locks");
      // The waits for the lock end at statement_timeout: 500 INTERNAL_ERROR, each logged as
      // 57014 (query_canceled) by its instance.
      expect(Object.keys(checked.errors.answered)).toEqual(["500 INTERNAL_ERROR"]);
      expect(checked.errors.answered["500 INTERNAL_ERROR"]).toBeGreaterThanOrEqual(4);
      expect(Object.keys(checked.errors.logged)).toEqual(["57014"]);
    });

    it(`restart: completes every item exactly once while PostgreSQL restarts under load, fast and as after a crash (seed ${seed})`, {
      timeout: 120_000,
    }, async () => {
      const { result, checked } = await runScenario("restart");
      expect(
        result.history.faults.map((fault) => /\((\w+) shutdown\)/.exec(fault.what)?.[1]),
      ).toEqual(["fast", "immediate"]);
      expect(Object.keys(checked.errors.answered)).toEqual(["500 INTERNAL_ERROR"]);
    });

    it(`storm: completes every item exactly once when every agent fails its lease and claims again at once (seed ${seed})`, {
      timeout: 120_000,
    }, async () => {
      const { result, checked } = await runScenario("storm");
      const stormFailures = result.history.operations.filter(
        (operation) => operation.intent === "storm" && operation.status === 200,
      );
      expect(stormFailures.length).toBeGreaterThan(0);
      expect(checked.errors).toEqual({ answered: {}, logged: {} });
    });
  },
);
