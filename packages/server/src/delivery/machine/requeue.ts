// Requeue: an admin puts a dead letter back on offer with a fresh failure budget; the run resumes
// once it has no dead letter left.
import { DeliveryError } from "../delivery-error.ts";
import { itemStatus } from "../rules.ts";
import type { Draft } from "./draft.ts";
import { offerItem, requireItem, updateRunStatus } from "./items.ts";
import type { ItemRecord } from "./run-state.ts";

/** Requeues a dead-lettered item (`NOT_DEAD_LETTERED` for any other); the item as it stands now. */
export function requeue(draft: Draft, workItemId: string): ItemRecord {
  const item = requireItem(draft, workItemId);
  if (item.status !== itemStatus.deadLettered) {
    throw new DeliveryError({
      code: "NOT_DEAD_LETTERED",
      message: `Work item ${item.id} is not dead-lettered (it is ${item.status.replace("_", " ")}); only dead letters can be requeued.`,
    });
  }
  draft.emit("work_item.requeued", { work_item_id: item.id, attempt: item.attempt + 1 });
  offerItem(draft, { ...item, failures: 0, dead_lettered_at: null });
  updateRunStatus(draft, item.id);
  return draft.item(item.id) ?? item;
}
