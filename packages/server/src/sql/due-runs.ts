// The runs a background duty is due for, over every run of the database: those with an overdue
// lease (a Node timer expires them) and those with A2A agents (a starting instance dispatches).
import { itemStatus } from "../delivery/rules.ts";
import { all, type SqlSteps } from "./sql-steps.ts";

/** The ids of the runs that hold a lease overdue at `now`. */
export function* runsWithOverdueLeases(now: number): SqlSteps<string[]> {
  return (yield* all<{ run_id: string }>(
    `SELECT DISTINCT run_id FROM work_items WHERE status = '${itemStatus.leased}' AND lease_expires_at <= ?`,
    now,
  )).map(({ run_id }) => run_id);
}

/** The runs not yet completed (nor canceled) that have A2A agents (a new instance starts dispatching to them). */
export function* readRunsWithA2aAgents(): SqlSteps<string[]> {
  const rows = yield* all<{ run_id: string }>(
    "SELECT DISTINCT agents.run_id AS run_id FROM agents JOIN runs ON runs.id = agents.run_id WHERE agents.a2a_endpoint IS NOT NULL AND runs.status NOT IN ('completed', 'canceled') ORDER BY agents.run_id",
  );
  return rows.map((row) => row.run_id);
}
