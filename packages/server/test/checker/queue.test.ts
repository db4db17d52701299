// The checker on the CI configuration: agents against the Node server process on an SQLite file,
// with crashes, duplicate and stale completions, expiring leases, dead letters and restarts of
// the server (SIGKILL and SIGTERM). The large configuration is a benchmark (bench/checker.bench.ts).
import { describe, expect, it, onTestFinished } from "vitest";
import { temporaryFolder } from "../node/services.ts";
import { check } from "./check.ts";
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
    const checked = check(result.history, result.final, { taskItems: 40, reviewItems: 40 });

    expect(checked.problems, rerun).toEqual([]);
    expect(
      {
        completedOnce: checked.completedOnce,
        lost: checked.lost,
        duplicated: checked.duplicated,
        staleAccepted: checked.staleAccepted,
        redelivered: checked.faults.redelivered,
        restarts: checked.faults.restarts,
      },
      rerun,
    ).toEqual({
      completedOnce: 80,
      lost: 0,
      duplicated: 0,
      staleAccepted: 0,
      redelivered: checked.faults.crashes,
      restarts: { SIGKILL: 1, SIGTERM: 1 },
    });
    // Every fault was injected, and answered as the contract says (the checker checked how).
    const { faults } = checked;
    for (const [fault, count] of Object.entries({
      crashes: faults.crashes,
      expired: faults.expired,
      failed: faults.failed,
      deadLettered: faults.deadLettered,
      requeued: faults.requeued,
      staleRefused: faults.staleRefused,
      ...faults.duplicates,
    })) {
      expect(count, `${fault} (${rerun})`).toBeGreaterThan(0);
    }
  });
});
