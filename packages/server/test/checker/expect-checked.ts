// What the CI tests of the checker expect of a CI-sized workload (ciWorkload), on SQLite
// (queue.test.ts) and on PostgreSQL with several instances (test/postgres/checker.test.ts).
import { expect } from "vitest";
import { type CheckResult, check } from "./check.ts";
import type { WorkloadResult } from "./workload.ts";

/**
 * Checks `result` and expects no anomaly: every item completed exactly once, none lost, no stale
 * completion accepted, every crashed lease delivered again, one SIGKILL and one SIGTERM, and every
 * fault injected and answered as the contract says. `rerun` says how to run the seed again.
 */
export function expectNoAnomaly(result: WorkloadResult, rerun: string): CheckResult {
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
  return checked;
}
