// The queue checker at scale (test/checker/ runs the CI size): 50 agents × 10 000 items against
// the Node server process on an SQLite file, 5 % crashes after claiming, 5 % duplicate
// completions, 2 s leases, items poisoned until dead-lettered and requeued, stale completions,
// and the server killed (SIGKILL) and stopped (SIGTERM) mid-run. Reports what the checker proved
// and how long a crashed lease took to be delivered again. Exits 1 when the checker finds a problem.
// Run: `pnpm --filter ./packages/server run bench` (CHECKER_SEED=<n> for another seed).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check } from "../test/checker/check.ts";
import { runWorkload } from "../test/checker/workload.ts";
import { largeWorkload } from "../test/checker/workloads.ts";

const seed = Number(process.env.CHECKER_SEED ?? 20_261_122);
const folder = mkdtempSync(join(tmpdir(), "task-context-edge-checker-"));

const percentiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
  const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
  return `${seconds(sorted[0] ?? Number.NaN)} / ${seconds(at(0.5))} / ${seconds(at(0.99))} / ${seconds(sorted.at(-1) ?? Number.NaN)}`;
};

try {
  const result = await runWorkload({ ...largeWorkload, seed, folder });
  const checked = check(result.history, result.final, {
    taskItems: largeWorkload.items,
    reviewItems: 0,
  });
  const { faults } = checked;
  const operations = result.history.operations;
  const rows = [
    ["seed", String(seed)],
    [
      "agents × items, lease",
      `${largeWorkload.agents} × ${largeWorkload.items}, ${largeWorkload.leaseMs} ms`,
    ],
    [
      "run time (first claim → run completed)",
      `${(result.durationMs / 1000).toFixed(1)} s, ${operations.length} operations, ${result.final.events.length} events`,
    ],
    ["items completed exactly once", `${checked.completedOnce} of ${checked.items.task}`],
    [
      "lost / duplicated / stale-accepted completions",
      `${checked.lost} / ${checked.duplicated} / ${checked.staleAccepted}`,
    ],
    ["completions acknowledged (replays included)", String(checked.acknowledged)],
    ["crashes after claiming / redelivered", `${faults.crashes} / ${faults.redelivered}`],
    ["redelivery after a crash, min / p50 / p99 / max", percentiles(checked.redeliveryMs)],
    [
      "lease expired → back on offer, min / p50 / p99 / max",
      `${percentiles(checked.expiryLagMs)} (${checked.expiryLagMs.length} leases); while the server was down: ${percentiles(checked.expiryLagWhileDownMs)} (${checked.expiryLagWhileDownMs.length})`,
    ],
    [
      "duplicate completions: same key / other key / other body / late",
      `${faults.duplicates["same-key"]} / ${faults.duplicates["other-key"]} / ${faults.duplicates["other-body"]} / ${faults.duplicates.late}`,
    ],
    ["stale completions refused", String(faults.staleRefused)],
    [
      "failed / expired / dead-lettered / requeued",
      `${faults.failed} / ${faults.expired} / ${faults.deadLettered} / ${faults.requeued}`,
    ],
    [
      "restarts: SIGKILL / SIGTERM (down for)",
      `${faults.restarts.SIGKILL} / ${faults.restarts.SIGTERM} (${result.history.restarts.map((restart) => `${restart.signal} ${((restart.upAt - restart.killedAt) / 1000).toFixed(2)} s`).join(", ")})`,
    ],
    ["operations without an answer (server down)", String(checked.unknown)],
    [
      "problems",
      checked.problemCount === 0
        ? "none"
        : `${checked.problemCount}: ${checked.problems.slice(0, 5).join(" ")}`,
    ],
  ];
  console.log("| measure | result |\n| --- | --- |");
  for (const [measure, value] of rows) console.log(`| ${measure} | ${value} |`);
  if (!checked.valid) process.exitCode = 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
