import type * as Contract from "../contract/schemas.ts";
import type { RunState } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { type ItemStatus, iso } from "./sql-rows.ts";

/** The run as the contract shows it: its stages with their items counted by status. */
export function runView(database: SqlDatabase, state: RunState): Contract.RunView {
  const { run } = state;
  const counts = database.all<{
    stage_position: number;
    status: ItemStatus;
    count: number;
  }>(
    "SELECT stage_position, status, count(*) AS count FROM work_items WHERE run_id = ? GROUP BY stage_position, status",
    run.id,
  );
  return {
    run_id: run.id,
    status: run.status,
    goal: run.goal,
    constraints: JSON.parse(run.constraints) as string[],
    lease_ms: run.lease_ms,
    max_attempts: run.max_attempts,
    created_at: iso(run.created_at),
    stages: state.stages.map(({ position, status, stage }) => {
      const tally = { total: 0, offered: 0, leased: 0, completed: 0, dead_lettered: 0 };
      for (const row of counts) {
        if (row.stage_position !== position) continue;
        tally[row.status] += Number(row.count);
        tally.total += Number(row.count);
      }
      return { ...stage, kind: stage.kind ?? "task", status, counts: tally };
    }),
  };
}
