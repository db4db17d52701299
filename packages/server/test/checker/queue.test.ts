// The checker on the CI configuration: agents against the Node server process on an SQLite file,
// with crashes, duplicate and stale completions, expiring leases, dead letters and restarts of
// the server (SIGKILL and SIGTERM). The large configuration is a benchmark (bench/checker.bench.ts);
// the same workload on PostgreSQL with three instances is test/postgres/checker.test.ts.
import { describe, expect, it, onTestFinished } from "vitest";
import { temporaryFolder } from "../node/services.ts";
import { expectNoAnomaly } from "./expect-checked.ts";
import { runWorkload } from "./workload.ts";
import { ciWorkload } from "./workloads.ts";

const seed = Number(process.env.CHECKER_SEED ?? 20_261_122);

describe("the queue checker (Jepsen style) against the Node server process", () => {
  it(`completes every item exactly once through crashes, duplicates, expiries and restarts (seed ${seed}; rerun with CHECKER_SEED=${seed})`, {
    timeout: 120_000,
  }, async () => {
    const folder = temporaryFolder();
    onTestFinished(() => folder.remove());
    const rerun = `seed ${seed}: rerun with CHECKER_SEED=${seed} vitest run test/checker`;
    const result = await runWorkload({ ...ciWorkload, seed, folder: folder.path }).catch(
      (error: unknown) => {
        throw new Error(`${rerun}: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    expectNoAnomaly(result, rerun);
  });

  it(`holds with A2A agents beside the polling ones, which crash, answer late and complete twice too (seed ${seed})`, {
    timeout: 120_000,
  }, async () => {
    const folder = temporaryFolder();
    onTestFinished(() => folder.remove());
    const rerun = `seed ${seed}: rerun with CHECKER_SEED=${seed} vitest run test/checker`;
    const a2a = { agents: 3, concurrency: 2 };
    const result = await runWorkload({ ...ciWorkload, a2a, seed, folder: folder.path }).catch(
      (error: unknown) => {
        throw new Error(`${rerun}: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    expectNoAnomaly(result, rerun);
    // The A2A agents did part of the work: their completions are in the stream.
    const byA2a = result.final.events.filter(
      (event) => event.type === "work_item.completed" && event.agent_tag.startsWith("a2a-"),
    );
    expect(byA2a.length).toBeGreaterThan(0);
  });
});
