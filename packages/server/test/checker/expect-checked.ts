// What the CI tests of the checker expect of a CI-sized workload (ciWorkload, chaosWorkload), on
// SQLite (queue.test.ts) and on PostgreSQL with several instances (test/postgres/checker.test.ts,
// test/postgres/chaos.test.ts).
import { expect } from "vitest";
import { type CheckResult, check, type Tolerated } from "./check.ts";
import type { WorkloadResult } from "./workload.ts";

/**
 * Checks `result` and expects no anomaly: every item completed exactly once, none lost, no stale
 * completion accepted, every crashed lease delivered again, the workload's restarts, and (unless
 * `everyFault` is false: a workload too small to be sure of each) every kind of fault injected
 * and answered as the contract says. `rerun` says how to run the seed again; `tolerated`, which
 * server errors a fault of the database may cause (see check.ts).
 */
export function expectNoAnomaly(
  result: WorkloadResult,
  rerun: string,
  { tolerated = {}, everyFault = true }: { tolerated?: Tolerated; everyFault?: boolean } = {},
): CheckResult {
  const { items, reviews, restarts } = result.options;
  const reviewItems = reviews ? items : 0;
  const checked = check(result.history, result.final, { taskItems: items, reviewItems }, tolerated);
  const restarted = (signal: string) =>
    restarts.filter((restart) => restart.signal === signal).length;

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
    completedOnce: items + reviewItems,
    lost: 0,
    duplicated: 0,
    staleAccepted: 0,
    redelivered: checked.faults.crashes,
    restarts: { SIGKILL: restarted("SIGKILL"), SIGTERM: restarted("SIGTERM") },
  });
  expect(checked.faults.crashes, `crashes (${rerun})`).toBeGreaterThan(0);
  if (!everyFault) return checked;
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
