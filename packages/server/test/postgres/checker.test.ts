// The checker on the CI configuration against three Node instances on one PostgreSQL database:
// every request goes to the next live instance, instance 0 is killed (SIGKILL) and instance 1
// stopped (SIGTERM) mid-run, each started again while the others serve, and the SSE client,
// started on instance 0, reconnects to another instance with Last-Event-ID when its own dies.
// The same expectations as on SQLite (test/checker/queue.test.ts).
import { describe, expect, it, onTestFinished } from "vitest";
import { expectNoAnomaly } from "../checker/expect-checked.ts";
import { runWorkload } from "../checker/workload.ts";
import { ciWorkload } from "../checker/workloads.ts";
import { newDatabase, reason, title } from "./services.ts";

const seed = Number(process.env.CHECKER_SEED ?? 20_261_122);
const count = 3;
/**
 * Leases twice the SQLite run's: three instances and PostgreSQL share the machine's cores, and an
 * agent's fail sent right after its claim must still find the lease current for the run to see
 * failures at all (with 300 ms, a CI machine under load answered every one of them as stale).
 */
const leaseMs = 2 * ciWorkload.leaseMs;

describe.skipIf(reason !== undefined)(
  title("the queue checker (Jepsen style) against three Node instances on PostgreSQL"),
  () => {
    it(`completes every item exactly once through crashes, duplicates, expiries, a killed and a restarted instance (seed ${seed}; rerun with CHECKER_SEED=${seed})`, {
      timeout: 120_000,
    }, async () => {
      const database = await newDatabase();
      onTestFinished(() => database.drop());
      const rerun = `seed ${seed}: rerun with CHECKER_SEED=${seed} vitest run test/postgres/checker.test.ts`;
      const result = await runWorkload({
        ...ciWorkload,
        leaseMs,
        seed,
        instances: { databaseUrl: database.url, count },
      }).catch((error: unknown) => {
        throw new Error(`${rerun}: ${error instanceof Error ? error.message : String(error)}`);
      });
      expectNoAnomaly(result, rerun);

      // Instance 0 was killed, then instance 1 stopped; every instance answered requests.
      const { operations, restarts } = result.history;
      expect(
        restarts.map((restart) => [restart.signal, restart.instance]),
        rerun,
      ).toEqual([
        ["SIGKILL", 0],
        ["SIGTERM", 1],
      ]);
      const answeredBy = Array.from(
        { length: count },
        (_, instance) =>
          operations.filter(
            (operation) => operation.instance === instance && operation.status !== "unknown",
          ).length,
      );
      for (const answered of answeredBy) expect(answered, rerun).toBeGreaterThan(0);

      // The SSE client began on instance 0 and, mid-run, reconnected to another instance with
      // the Last-Event-ID of the last frame it had.
      const { stream } = result;
      const total = result.final.events.length;
      expect(stream[0]?.instance, rerun).toBe(0);
      const movedOn = stream.filter(
        (connection, at) =>
          at > 0 &&
          connection.instance !== stream[at - 1]?.instance &&
          connection.lastEventId === String(connection.framesBefore) &&
          connection.framesBefore > 0 &&
          connection.framesBefore < total,
      );
      expect(movedOn.length, `${JSON.stringify(stream)} (${rerun})`).toBeGreaterThanOrEqual(1);
    });
  },
);
