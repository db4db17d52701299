// The queue checker at scale (test/checker/ runs the CI size): 50 agents × 10 000 items against
// the Node server process on an SQLite file, 5 % crashes after claiming, 5 % duplicate
// completions, 2 s leases, items poisoned until dead-lettered and requeued, stale completions,
// and the server killed (SIGKILL) and stopped (SIGTERM) mid-run. Reports what the checker proved
// and how long a crashed lease took to be delivered again. Exits 1 when the checker finds a problem.
// With CHECKER_POSTGRES=1: the same against three Node instances on one database of a throwaway
// PostgreSQL server (scripts/postgres.mjs), requests spread round-robin over the live instances,
// instance 0 killed (SIGKILL) and instance 1 stopped (SIGTERM) mid-run, and the SSE client moving
// to another instance when its own goes away.
// With CHECKER_A2A=<n>: n A2A agents (the official SDK's server, 2 items at once each) beside the
// polling agents, faulting at the same rates (silent, late, completed twice).
// Run: `pnpm --filter ./packages/server run bench` (CHECKER_SEED=<n> for another seed), or
// `CHECKER_POSTGRES=1 node --conditions=@task-context/source bench/checker.bench.ts`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Postgres, startPostgres } from "../../../scripts/postgres.mjs";
import { check } from "../test/checker/check.ts";
import { runWorkload } from "../test/checker/workload.ts";
import { largeWorkload } from "../test/checker/workloads.ts";

const seed = Number(process.env.CHECKER_SEED ?? 20_261_122);
const onPostgres = process.env.CHECKER_POSTGRES === "1";
const a2aAgents = Number(process.env.CHECKER_A2A ?? 0);
const count = 3;
const folder = mkdtempSync(join(tmpdir(), "task-context-edge-checker-"));
let server: Postgres | undefined;

const percentiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
  const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
  return `${seconds(sorted[0] ?? Number.NaN)} / ${seconds(at(0.5))} / ${seconds(at(0.99))} / ${seconds(sorted.at(-1) ?? Number.NaN)}`;
};

try {
  // Each instance opens up to 10 connections, and one that listens.
  if (onPostgres) server = await startPostgres({ settings: { max_connections: 100 } });
  const result = await runWorkload({
    ...largeWorkload,
    seed,
    ...(a2aAgents > 0 ? { a2a: { agents: a2aAgents, concurrency: 2 } } : {}),
    ...(server === undefined ? { folder } : { instances: { databaseUrl: server.url, count } }),
  });
  const checked = check(result.history, result.final, {
    taskItems: largeWorkload.items,
    reviewItems: 0,
  });
  const { faults } = checked;
  const operations = result.history.operations;
  const down = server === undefined ? "the server was down" : "an instance was down";
  const rows = [
    ...(server === undefined
      ? []
      : [
          [
            "store, instances",
            `PostgreSQL ${server.version}, ${count} Node instances (requests round-robin): ${Array.from({ length: count }, (_, instance) => operations.filter((operation) => operation.instance === instance).length).join(" / ")} operations`,
          ],
          [
            "SSE client's connections: instance (frames before)",
            result.stream
              .map((connection) => `${connection.instance} (${connection.framesBefore})`)
              .join(" → "),
          ],
        ]),
    ["seed", String(seed)],
    ...(a2aAgents === 0
      ? []
      : [
          [
            "A2A agents (2 items at once each): items they completed",
            `${a2aAgents}: ${result.final.events.filter((event) => event.type === "work_item.completed" && event.agent_tag.startsWith("a2a-")).length}`,
          ],
        ]),
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
      `${percentiles(checked.expiryLagMs)} (${checked.expiryLagMs.length} leases); while ${down}: ${percentiles(checked.expiryLagWhileDownMs)} (${checked.expiryLagWhileDownMs.length})`,
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
      `${faults.restarts.SIGKILL} / ${faults.restarts.SIGTERM} (${result.history.restarts.map((restart) => `${restart.signal}${restart.instance === undefined ? "" : ` instance ${restart.instance}`} ${((restart.upAt - restart.killedAt) / 1000).toFixed(2)} s`).join(", ")})`,
    ],
    [
      `operations without an answer (${server === undefined ? "server" : "instance"} down)`,
      String(checked.unknown),
    ],
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
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
}
