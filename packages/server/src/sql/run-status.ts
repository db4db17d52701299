import { emitEvent } from "./run-events.ts";
import type { RunState } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { RunStatus } from "./sql-rows.ts";

/** Sets the run's status (row and state). */
export function setRunStatus(database: SqlDatabase, state: RunState, status: RunStatus): void {
  database.run("UPDATE runs SET status = ? WHERE id = ?", status, state.run.id);
  state.run.status = status;
}

/** Blocked while any item is dead-lettered, active again when none is (unless completed). */
export function updateRunStatus(database: SqlDatabase, state: RunState, workItemId: string): void {
  if (state.run.status === "completed") return;
  const [row] = database.all<{ count: number }>(
    "SELECT count(*) AS count FROM work_items WHERE run_id = ? AND status = 'dead_lettered'",
    state.run.id,
  );
  const status: RunStatus = Number(row?.count ?? 0) > 0 ? "blocked" : "active";
  if (status === state.run.status) return;
  setRunStatus(database, state, status);
  emitEvent(database, state, status === "blocked" ? "run.blocked" : "run.resumed", {
    work_item_id: workItemId,
  });
}
