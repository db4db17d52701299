// The queue checker with PostgreSQL failing under the service (test/checker/postgres-chaos.ts;
// test/postgres/chaos.test.ts runs the CI size): 50 agents × 2 000 items against three Node
// instances on one database of a throwaway PostgreSQL server, with the checker's faults (crashes,
// duplicates, stale completions, expiries, dead letters) and one scenario's faults of the
// database: its backends terminated, its connection slots exhausted, locks held idle in a
// transaction, the server restarted, or a retry storm — after the same workload with no fault
// of the database, the baseline. Prints one table, a column per run; exits 1 when the checker
// finds a problem.
// Run (in packages/server):
//   CHECKER_CHAOS=<terminate|pool|locks|restart|storm|all> node --conditions=@task-context/source bench/postgres-chaos.bench.ts
// CHECKER_SEED=<n> for another seed; CHECKER_CHAOS_SIZE=ci for the CI's size (2 instances).
import { type Postgres, startPostgres } from "../../../scripts/postgres.mjs";
import { check, type Tolerated } from "../test/checker/check.ts";
import type { Operation } from "../test/checker/history.ts";
import {
  type ChaosScenarioName,
  chaosScenarioNames,
  chaosSummaries,
  chaosTolerated,
  chaosWorkload,
  ciChaosSizes,
  largeChaosSizes,
} from "../test/checker/postgres-chaos.ts";
import { runWorkload, type WorkloadOptions } from "../test/checker/workload.ts";
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

/** The longest answer, long polls that waited their whole second for an offer (204) left out. */
const slowest = (operations: readonly Operation[]) =>
  Math.max(
    0,
    ...operations
      .filter((operation) => !(operation.action === "claim-next" && operation.status === 204))
      .map((operation) => operation.end - operation.start),
  );
const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`;

/** What one run leaves for the table: its column, its faults, and whether it held. */
interface Measured {
  name: string;
  column: Record<string, string>;
  faults: string;
  durationMs: number;
  valid: boolean;
}

/** Runs `workload` and checks it with `tolerated`: the column of the table. */
async function measure(
  name: string,
  workload: WorkloadOptions,
  tolerated: Tolerated,
): Promise<Measured> {
  const result = await runWorkload(workload);
  const checked = check(
    result.history,
    result.final,
    { taskItems: base.items, reviewItems: base.reviews ? base.items : 0 },
    tolerated,
  );
  const { faults } = checked;
  // The operations that overlapped a fault of the database (or a storm).
  const during = result.history.operations.filter((operation) =>
    result.history.faults.some(
      (fault) => operation.start <= fault.end && operation.end >= fault.start,
    ),
  );
  const storms = result.history.operations.filter((operation) => operation.intent === "storm");
  const answers = storms.reduce<Record<string, number>>((counts, operation) => {
    const answer = `${operation.status}${operation.code === undefined ? "" : ` ${operation.code}`}`;
    counts[answer] = (counts[answer] ?? 0) + 1;
    return counts;
  }, {});
  return {
    name,
    faults: faultsOf(result.history.faults),
    durationMs: result.durationMs,
    valid: checked.valid,
    column: {
      "faults of the database": String(result.history.faults.length),
      lease: `${result.options.leaseMs} ms`,
      "run time (first claim → run completed)": `${(result.durationMs / 1000).toFixed(1)} s`,
      "operations / events": `${result.history.operations.length} / ${result.final.events.length}`,
      "items completed exactly once": `${checked.completedOnce} of ${checked.items.task + checked.items.review}`,
      "lost / duplicated / stale-accepted": `**${checked.lost} / ${checked.duplicated} / ${checked.staleAccepted}**`,
      "crashes after claiming / redelivered": `${faults.crashes} / ${faults.redelivered}`,
      "failed / expired / dead-lettered / requeued": `${faults.failed} / ${faults.expired} / ${faults.deadLettered} / ${faults.requeued}`,
      "storm failures answered": storms.length === 0 ? "–" : counted(answers),
      "errors answered to agents": counted(checked.errors.answered),
      "errors the instances logged, by code": counted(checked.errors.logged),
      "operations without an answer": String(checked.unknown),
      "slowest answer during a fault / at any time": `${during.length === 0 ? "–" : seconds(slowest(during))} / ${seconds(slowest(result.history.operations))}`,
      "SSE: connections / new clients after a refused reconnection": `${result.stream.length} / ${result.streamRestarts}`,
      problems:
        checked.problemCount === 0
          ? "none"
          : `${checked.problemCount}: ${checked.problems.slice(0, 3).join(" ")}`,
    },
  };
}

let server: Postgres | undefined;
const measured: Measured[] = [];
try {
  // Few slots, so that another client can hold them all (the pool scenario).
  server = await startPostgres({ settings: { max_connections: 20 + instances * 12 } });
  for (const scenario of ["none", ...scenarios] as const) {
    const database = await createDatabase(server.url);
    try {
      const target = { server, databaseUrl: database.url, instances };
      measured.push(
        scenario === "none"
          ? await measure(
              "no fault (baseline)",
              { ...base, seed, instances: { databaseUrl: database.url, count: instances } },
              {},
            )
          : await measure(
              scenario,
              chaosWorkload(scenario, { ...base, seed }, target, sizes[scenario]),
              chaosTolerated[scenario],
            ),
      );
    } finally {
      await database.drop();
    }
  }
  const [baseline] = measured;
  console.log(
    `PostgreSQL ${server.version}, ${instances} Node instances, ${base.agents} agents × ${base.items} items${base.reviews ? ` + ${base.items} reviews` : ""}, seed ${seed}.\n`,
  );
  console.log(`| measure | ${measured.map((each) => each.name).join(" | ")} |`);
  console.log(`| --- | ${measured.map(() => "---").join(" | ")} |`);
  for (const row of Object.keys(baseline?.column ?? {})) {
    console.log(`| ${row} | ${measured.map((each) => each.column[row]).join(" | ")} |`);
    if (row === "run time (first claim → run completed)") {
      console.log(
        `| run time ÷ baseline | ${measured.map((each) => `${(each.durationMs / (baseline?.durationMs ?? Number.NaN)).toFixed(2)}×`).join(" | ")} |`,
      );
    }
  }
  console.log("");
  for (const each of measured.slice(1)) {
    const name = each.name as ChaosScenarioName;
    console.log(`- **${name}**: ${chaosSummaries[name]}. Faults: ${each.faults}.`);
  }
  if (measured.some((each) => !each.valid)) process.exitCode = 1;
} finally {
  await server?.stop();
}
