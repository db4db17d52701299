// Cancel: an admin stops a run for good. Its items on offer or leased are withdrawn (the run's
// status overrides theirs) and every later claim, heartbeat, completion or failure of the run is
// refused with RUN_CANCELED; canceling again answers the run as it is.
import { DeliveryError } from "../delivery-error.ts";
import type { Draft } from "./draft.ts";
import { iso } from "./draft.ts";
import type { RunRecord } from "./run-state.ts";

/** Cancels the run (`RUN_COMPLETED` for a completed one); nothing changes for a canceled one. */
export function cancelRun(draft: Draft, reason: string | undefined): undefined {
  const { run } = draft;
  if (run.status === "canceled") return undefined;
  if (run.status === "completed") {
    throw new DeliveryError({
      code: "RUN_COMPLETED",
      message: `Run ${run.id} is completed: a completed run cannot be canceled. Its artifacts stand; nothing is left to stop.`,
    });
  }
  for (const id of draft.state.leased) {
    const item = draft.item(id);
    if (item === undefined) continue;
    // The attempt ends with the run; its row keeps `leased`, which the run's status overrides.
    draft.write({
      type: "endAttempt",
      work_item_id: item.id,
      attempt: item.attempt,
      outcome: "failed",
      reason: "the run was canceled",
      ended_at: draft.now,
    });
    draft.putItem({ ...item, lease_expires_at: null });
  }
  run.status = "canceled";
  run.canceled_at = draft.now;
  run.cancel_reason = reason ?? null;
  draft.write({ type: "cancelRun", canceled_at: draft.now, cancel_reason: reason ?? null });
  draft.emit("run.canceled", reason === undefined ? {} : { reason });
  return undefined;
}

/** `RUN_CANCELED`: what every command of a canceled run but a cancel is refused with. */
export function runCanceled(run: RunRecord): DeliveryError {
  const at = run.canceled_at === null ? "" : ` at ${iso(run.canceled_at)}`;
  const why = run.cancel_reason === null ? "" : ` (reason: ${run.cancel_reason})`;
  return new DeliveryError({
    code: "RUN_CANCELED",
    message: `Run ${run.id} was canceled${at}${why}: its work items are withdrawn and nothing of it is accepted any more. Stop working on it.`,
  });
}
