// The queue checker with PostgreSQL failing under the service (test/checker/postgres-chaos.ts;
// test/postgres/chaos.test.ts runs the CI size): 50 agents × 2 000 items against three Node
// instances on one database of a throwaway PostgreSQL server, with the checker's faults (crashes,
// duplicates, stale completions, expiries, dead letters) and one scenario's faults of the
// database: its backends terminated, its connection slots exhausted, locks held idle in a
// transaction, the server restarted, or a retry storm. Prints one table per scenario; exits 1
// when the checker finds a problem.
// Run (in packages/server):
//   CHECKER_CHAOS=<terminate|pool|locks|restart|storm|all> node --conditions=@task-context/source bench/postgres-chaos.bench.ts
// CHECKER_SEED=<n> for another seed; CHECKER_CHAOS_SIZE=ci for the CI's size (2 instances).
import { type Postgres, startPostgres } from "../../../scripts/postgres.mjs";
import { check } from "../test/checker/check.ts";
import {
  type ChaosScenarioName,
  chaosScenarioNames,
  chaosSummaries,
  chaosTolerated,
  chaosWorkload,
  ciChaosSizes,
  largeChaosSizes,
} from "../test/checker/postgres-chaos.ts";
import { runWorkload } from "../test/checker/workload.ts";
import { ciChaosWorkload, largeChaosWorkload } from "../test/checker/workloads.ts";
import { createDatabase } from "../test/postgres/databases.ts";

const seed = Number(process.env.CHECKER_SEED ?? 20_261_122);
const chosen = process.env.CHECKER_CHAOS ?? "all";
const ci = process.env.CHECKER_CHAOS_SIZE === "ci";
const scenarios: readonly ChaosScenarioName[] =
  chosen === "all" ? chaosScenarioNames : chaosScenarioNames.filter((name) => name === chosen);
if (scenarios.length === 0) {
  console.error(`CHECKER_CHAOS is one of ${chaosScenarioNames.join(", ")} or all, not ${chosen}`);
  process.exit(2);
}
const base = ci ? ciChaosWorkload : largeChaosWorkload;
const instances = ci ? 2 : 3;
const sizes = ci ? ciChaosSizes : largeChaosSizes;

/** The faults' sentences; many of one shape as the shape once, with each one's numbers. */
const faultsOf = (faults: ReadonlyArray<{ what: string }>) => {
  const shape = (what: string) => what.replace(/\d+(\.\d+)?/g, "#");
  const [first] = faults;
  if (first === undefined) return "none";
  if (faults.length <= 4 || faults.some((fault) => shape(fault.what) !== shape(first.what))) {
    return faults.map((fault) => fault.what).join("; ");
  }
  const numbers = faults.map((fault) => (fault.what.match(/\d+(\.\d+)?/g) ?? []).join(" "));
  return `${faults.length} × "${shape(first.what)}", # = ${numbers.join(", ")}`;
};

const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([what, count]) => `${what} × ${count}`)
    .join(", ") || "none";

const slowest = (operations: ReadonlyArray<{ start: number; end: number }>) =>
  Math.max(0, ...operations.map((operation) => operation.end - operation.start));
const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`;

let server: Postgres | undefined;
try {
  // Few slots, so that another client can hold them all (the pool scenario).
  server = await startPostgres({ settings: { max_connections: 20 + instances * 12 } });
  for (const scenario of scenarios) {
    const database = await createDatabase(server.url);
    try {
      const result = await runWorkload(
        chaosWorkload(
          scenario,
          { ...base, seed },
          { server, databaseUrl: database.url, instances },
          sizes[scenario],
        ),
      );
      const checked = check(
        result.history,
        result.final,
        { taskItems: base.items, reviewItems: base.reviews ? base.items : 0 },
        chaosTolerated[scenario],
      );
      const { faults } = checked;
      // The operations that overlapped a fault of the database (or a storm).
      const during = result.history.operations.filter((operation) =>
        result.history.faults.some(
          (fault) => operation.start <= fault.end && operation.end >= fault.start,
        ),
      );
      const storms = result.history.operations.filter((operation) => operation.intent === "storm");
      const rows = [
        ["scenario", `${scenario}: ${chaosSummaries[scenario]}`],
        [
          "store, instances, seed",
          `PostgreSQL ${server.version}, ${instances} Node instances, seed ${seed}`,
        ],
        ["faults of the database injected", faultsOf(result.history.faults)],
        ...(storms.length === 0
          ? []
          : [
              [
                "storm failures answered",
                counted(
                  storms.reduce<Record<string, number>>((counts, operation) => {
                    const answer = `${operation.status}${operation.code === undefined ? "" : ` ${operation.code}`}`;
                    counts[answer] = (counts[answer] ?? 0) + 1;
                    return counts;
                  }, {}),
                ),
              ],
            ]),
        [
          "agents × items, lease",
          `${base.agents} × ${base.items}${base.reviews ? ` + ${base.items} reviews` : ""}, ${result.options.leaseMs} ms`,
        ],
        [
          "run time (first claim → run completed)",
          `${(result.durationMs / 1000).toFixed(1)} s, ${result.history.operations.length} operations, ${result.final.events.length} events`,
        ],
        [
          "items completed exactly once",
          `${checked.completedOnce} of ${checked.items.task + checked.items.review}`,
        ],
        [
          "lost / duplicated / stale-accepted completions",
          `${checked.lost} / ${checked.duplicated} / ${checked.staleAccepted}`,
        ],
        ["crashes after claiming / redelivered", `${faults.crashes} / ${faults.redelivered}`],
        [
          "failed / expired / dead-lettered / requeued",
          `${faults.failed} / ${faults.expired} / ${faults.deadLettered} / ${faults.requeued}`,
        ],
        ["errors answered to agents", counted(checked.errors.answered)],
        ["errors the instances logged, by code", counted(checked.errors.logged)],
        ["operations without an answer", String(checked.unknown)],
        [
          "slowest answer while a fault was under way / at any time",
          `${seconds(slowest(during))} / ${seconds(slowest(result.history.operations))}`,
        ],
        [
          "SSE client: connections / new clients after a refused reconnection",
          `${result.stream.length} / ${result.streamRestarts}`,
        ],
        [
          "problems",
          checked.problemCount === 0
            ? "none"
            : `${checked.problemCount}: ${checked.problems.slice(0, 5).join(" ")}`,
        ],
      ];
      console.log("\n| measure | result |\n| --- | --- |");
      for (const [measure, value] of rows) console.log(`| ${measure} | ${value} |`);
      if (!checked.valid) process.exitCode = 1;
    } finally {
      await database.drop();
    }
  }
} finally {
  await server?.stop();
}
