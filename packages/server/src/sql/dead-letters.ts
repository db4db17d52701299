import type { WorkItem } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { readAttempts } from "./attempts.ts";
import { offerItem } from "./offers.ts";
import { emitEvent } from "./run-events.ts";
import { type RunState, requireItem } from "./run-state.ts";
import { updateRunStatus } from "./run-status.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { type ItemRow, iso } from "./sql-rows.ts";
import { workItemView } from "./work-item-view.ts";

/** The run's dead-lettered items with their attempts, oldest first (before `context_sha256`). */
export function listDeadLetters(database: SqlDatabase, state: RunState): Contract.DeadLetter[] {
  const runId = state.run.id;
  return database
    .all<ItemRow>(
      "SELECT * FROM work_items WHERE run_id = ? AND status = 'dead_lettered' ORDER BY dead_lettered_at, offered_seq",
      runId,
    )
    .map((item) => ({
      work_item: workItemView(database, state, item),
      dead_lettered_at: iso(item.dead_lettered_at ?? state.now),
      attempts: readAttempts(database, runId, item.id),
    }));
}

/**
 * Puts a dead-lettered item back on offer with a fresh failure budget (`NOT_DEAD_LETTERED` for any
 * other item); the run resumes when it has no dead letter left.
 */
export function requeueDeadLetter(
  database: SqlDatabase,
  state: RunState,
  workItemId: string,
): WorkItem {
  const runId = state.run.id;
  const item = requireItem(database, runId, workItemId);
  if (item.status !== "dead_lettered") {
    throw new DeliveryError({
      code: "NOT_DEAD_LETTERED",
      message: `Work item ${item.id} is not dead-lettered (it is ${item.status.replace("_", " ")}); only dead letters can be requeued.`,
    });
  }
  database.run(
    "UPDATE work_items SET failures = 0, dead_lettered_at = NULL WHERE run_id = ? AND id = ?",
    runId,
    item.id,
  );
  emitEvent(database, state, "work_item.requeued", {
    work_item_id: item.id,
    attempt: item.attempt + 1,
  });
  offerItem(database, state, item);
  updateRunStatus(database, state, item.id);
  return workItemView(database, state, requireItem(database, runId, item.id));
}
