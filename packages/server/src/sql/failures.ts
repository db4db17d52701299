import type * as Contract from "../contract/schemas.ts";
import type { AgentIdentity } from "../delivery/delivery-store.ts";
import { endAttempt } from "./attempts.ts";
import { requireLiveLease } from "./leases.ts";
import { offerItem } from "./offers.ts";
import { emitEvent } from "./run-events.ts";
import type { RunState } from "./run-state.ts";
import { updateRunStatus } from "./run-status.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ItemRow } from "./sql-rows.ts";

/** An agent gives its attempt up: the attempt fails and counts against the item's budget. */
export function failItem(
  database: SqlDatabase,
  state: RunState,
  item: ItemRow,
  agent: AgentIdentity,
  body: Contract.FailBody,
): Contract.FailureView {
  requireLiveLease(item, agent, body.attempt);
  endAttempt(database, state, item.id, item.attempt, "failed", body.reason);
  const event = emitEvent(database, state, "work_item.failed", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    attempt: item.attempt,
    reason: body.reason,
  });
  const status = countFailure(database, state, item);
  return {
    work_item_id: item.id,
    status,
    attempts_left: Math.max(0, state.run.max_attempts - item.failures - 1),
    event_id: event.id,
  };
}

/** Counts a failed or expired attempt: the item goes back on offer, or to the dead letters. */
export function countFailure(
  database: SqlDatabase,
  state: RunState,
  item: ItemRow,
): "offered" | "dead_lettered" {
  const failures = item.failures + 1;
  database.run(
    "UPDATE work_items SET failures = ?, lease_expires_at = NULL WHERE run_id = ? AND id = ?",
    failures,
    state.run.id,
    item.id,
  );
  if (failures < state.run.max_attempts) {
    offerItem(database, state, item);
    return "offered";
  }
  database.run(
    "UPDATE work_items SET status = 'dead_lettered', dead_lettered_at = ? WHERE run_id = ? AND id = ?",
    state.now,
    state.run.id,
    item.id,
  );
  emitEvent(database, state, "work_item.dead_lettered", {
    work_item_id: item.id,
    attempts: failures,
  });
  updateRunStatus(database, state, item.id);
  return "dead_lettered";
}
