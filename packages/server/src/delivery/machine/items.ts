// What several commands do to a work item: find it, put it on offer, count a failed attempt
// (back on offer, or to the dead letters), and keep the run's status in step with its dead letters.
import { DeliveryError } from "../delivery-error.ts";
import { afterFailedAttempt, itemStatus, runStatusFor } from "../rules.ts";
import type { Draft } from "./draft.ts";
import type { ItemRecord } from "./run-state.ts";

const { offered, deadLettered } = itemStatus;

/** A run's work item by its id; `WORK_ITEM_NOT_FOUND` for an id the run does not have. */
export function requireItem(draft: Draft, workItemId: string): ItemRecord {
  const item = draft.item(workItemId);
  if (item === undefined) {
    throw new DeliveryError({
      code: "WORK_ITEM_NOT_FOUND",
      message: `The run has no work item ${workItemId}. Take work item ids from the inbox.`,
    });
  }
  return item;
}

/** Puts an item (back) on offer, at the end of the queue, with its next attempt announced. */
export function offerItem(
  draft: Draft,
  item: ItemRecord,
  { insert = false }: { insert?: boolean } = {},
): void {
  const event = draft.emit("work_item.offered", {
    work_item_id: item.id,
    stage_id: draft.state.stages[item.stage_position]?.id ?? "",
    kind: item.kind,
    attempt: item.attempt + 1,
  });
  draft.putItem({ ...item, status: offered, offered_seq: event.seq }, { insert });
}

/**
 * Counts a failed or expired attempt (`item` as it ended): the item goes back on offer while the
 * run's attempt budget lasts, else to the dead letters. Where it went.
 */
export function countFailure(draft: Draft, item: ItemRecord): typeof offered | typeof deadLettered {
  const failures = item.failures + 1;
  if (afterFailedAttempt(failures, draft.run.max_attempts) === offered) {
    offerItem(draft, { ...item, failures, lease_expires_at: null });
    return offered;
  }
  draft.putItem({
    ...item,
    status: deadLettered,
    failures,
    lease_expires_at: null,
    dead_lettered_at: draft.now,
  });
  draft.emit("work_item.dead_lettered", { work_item_id: item.id, attempts: failures });
  updateRunStatus(draft, item.id);
  return deadLettered;
}

/** Blocked while any item is dead-lettered, active again when none is (unless completed). */
export function updateRunStatus(draft: Draft, workItemId: string): void {
  if (draft.run.status === "completed") return;
  const status = runStatusFor(draft.deadLetters());
  if (status === draft.run.status) return;
  draft.run.status = status;
  draft.emit(status === "blocked" ? "run.blocked" : "run.resumed", { work_item_id: workItemId });
}
