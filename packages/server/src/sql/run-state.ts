import type * as Contract from "../contract/schemas.ts";
import { DeliveryError, runNotFound } from "../delivery/delivery-error.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ItemRow, RunRow, StageRow } from "./sql-rows.ts";

/** What one operation on a run reads once: the run and its stages. */
export interface RunState {
  run: RunRow;
  stages: Array<StageRow & { stage: Contract.StageInput }>;
  now: number;
}

/** Reads a run and its stages at `now`; `RUN_NOT_FOUND` for a run the database does not hold. */
export function loadRunState(database: SqlDatabase, runId: string, now: number): RunState {
  const [run] = database.all<RunRow>("SELECT * FROM runs WHERE id = ?", runId);
  if (run === undefined) throw runNotFound(runId);
  const stages = database
    .all<StageRow>(
      "SELECT position, id, definition, status FROM stages WHERE run_id = ? ORDER BY position",
      runId,
    )
    .map((row) => ({ ...row, stage: JSON.parse(row.definition) as Contract.StageInput }));
  return { run: { ...run }, stages, now };
}

/** The definition of the stage a work item belongs to. */
export function stageOf(state: RunState, item: ItemRow): Contract.StageInput {
  const entry = state.stages[item.stage_position];
  if (entry === undefined) throw new Error(`work item ${item.id} has no stage`);
  return entry.stage;
}

/** A row of a run's artifacts or work items by its id. */
export function findRow<Row>(
  database: SqlDatabase,
  table: "artifacts" | "work_items",
  runId: string,
  id: string,
): Row | undefined {
  const sql = `SELECT * FROM ${table} WHERE run_id = ? AND id = ?`;
  return database.all<Row>(sql, runId, id)[0];
}

/** A run's work item by its id; `WORK_ITEM_NOT_FOUND` for an id the run does not have. */
export function requireItem(database: SqlDatabase, runId: string, workItemId: string): ItemRow {
  const item = findRow<ItemRow>(database, "work_items", runId, workItemId);
  if (item === undefined) {
    throw new DeliveryError({
      code: "WORK_ITEM_NOT_FOUND",
      message: `The run has no work item ${workItemId}. Take work item ids from the inbox.`,
    });
  }
  return item;
}
