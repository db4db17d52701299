import type { AgentIdentity } from "../delivery/delivery-store.ts";
import { emitEvent } from "./run-events.ts";
import type { RunState } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ItemRow } from "./sql-rows.ts";

/** Puts an item (back) on offer, at the end of the queue. */
export function offerItem(
  database: SqlDatabase,
  state: RunState,
  item: Pick<ItemRow, "id" | "kind" | "attempt" | "stage_position">,
): void {
  const stage = state.stages[item.stage_position];
  const event = emitEvent(database, state, "work_item.offered", {
    work_item_id: item.id,
    stage_id: stage?.id ?? "",
    kind: item.kind,
    attempt: item.attempt + 1,
  });
  database.run(
    "UPDATE work_items SET status = 'offered', offered_seq = ? WHERE run_id = ? AND id = ?",
    event.seq,
    state.run.id,
    item.id,
  );
}

/** The items `agent` may claim, oldest offer first, at most `limit`: never a review of its own work. */
export function itemsOnOffer(
  database: SqlDatabase,
  state: RunState,
  agent: AgentIdentity,
  limit: number,
): ItemRow[] {
  return database.all<ItemRow>(
    `SELECT * FROM work_items WHERE run_id = ? AND status = 'offered'
       AND (target_author_id IS NULL OR target_author_id <> ?)
     ORDER BY offered_seq LIMIT ?`,
    state.run.id,
    agent.agent_id,
    limit,
  );
}
