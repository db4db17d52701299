// Lease expiry: every lease overdue at `now` ends as an expired attempt, which counts as a failed
// one. Every command starts with it, so expiry never waits for a timer.
import { itemStatus } from "../rules.ts";
import type { Draft } from "./draft.ts";
import { countFailure } from "./items.ts";
import { type ItemRecord, leaseExpiryFloor } from "./run-state.ts";

/**
 * Expires every lease overdue at the draft's `now`, the earliest expiry first. The run's leases
 * are looked at only when the earliest of them may be due (`leaseExpiryFloor`): a command of a
 * run with thousands of leases does not walk them all.
 */
export function expireLeases(draft: Draft): void {
  if (leaseExpiryFloor(draft.state, draft.now) > draft.now) return;
  const overdue: ItemRecord[] = [];
  for (const id of draft.state.leased) {
    const item = draft.item(id);
    if (
      item?.status === itemStatus.leased &&
      item.lease_expires_at !== null &&
      item.lease_expires_at <= draft.now
    ) {
      overdue.push(item);
    }
  }
  overdue.sort(
    (left, right) =>
      (left.lease_expires_at ?? 0) - (right.lease_expires_at ?? 0) ||
      left.offered_seq - right.offered_seq,
  );
  for (const item of overdue) {
    draft.write({
      type: "endAttempt",
      work_item_id: item.id,
      attempt: item.attempt,
      outcome: "expired",
      reason: null,
      ended_at: item.lease_expires_at ?? draft.now,
    });
    draft.emit("work_item.lease_expired", {
      work_item_id: item.id,
      agent_tag: item.holder_tag ?? "",
      attempt: item.attempt,
    });
    countFailure(draft, { ...item, outcome: "expired" });
  }
}
