import type { WorkItem } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { AgentIdentity } from "../delivery/delivery-store.ts";
import { attemptOutcome } from "./attempts.ts";
import { itemsOnOffer } from "./offers.ts";
import { emitEvent } from "./run-events.ts";
import { type RunState, requireItem } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { type ItemRow, iso } from "./sql-rows.ts";
import { workItemView } from "./work-item-view.ts";

/** A claim as the store answers it before the work item gets its `context_sha256`. */
export interface Claim {
  /** The leased item. */
  work_item: WorkItem;
  /** The new attempt and when its lease expires. */
  lease: Contract.ClaimView["lease"];
}

/**
 * Claims one item (`workItemId`) or the oldest one on offer to `agent` (undefined): a new attempt
 * with a lease. Undefined when nothing is on offer (claim-next only).
 */
export function claimItem(
  database: SqlDatabase,
  state: RunState,
  agent: AgentIdentity,
  workItemId: string | undefined,
): Claim | undefined {
  const runId = state.run.id;
  let item: ItemRow | undefined;
  if (workItemId === undefined) {
    [item] = itemsOnOffer(database, state, agent, 1);
    if (item === undefined) return undefined;
  } else {
    item = requireItem(database, runId, workItemId);
    if (item.kind === "review" && item.target_author_id === agent.agent_id) {
      throw new DeliveryError({
        code: "SELF_REVIEW",
        message: `Work item ${item.id} reviews your own artifact ${item.target_artifact_id}: another agent must review it. Claim another item.`,
      });
    }
    if (item.status !== "offered") {
      const why = {
        leased: "another agent holds its lease",
        completed: "it is completed",
        dead_lettered: "it is dead-lettered (an admin can requeue it)",
      }[item.status];
      throw new DeliveryError({
        code: "NOT_ON_OFFER",
        message: `Work item ${item.id} is not on offer: ${why}. Poll the inbox for items you can claim.`,
      });
    }
  }
  const attempt = item.attempt + 1;
  const expiresAt = state.now + state.run.lease_ms;
  database.run(
    `UPDATE work_items SET status = 'leased', attempt = ?, holder_id = ?, holder_tag = ?, lease_expires_at = ?
     WHERE run_id = ? AND id = ?`,
    attempt,
    agent.agent_id,
    agent.tag,
    expiresAt,
    runId,
    item.id,
  );
  database.run(
    `INSERT INTO attempts (run_id, work_item_id, attempt, agent_id, agent_tag, leased_at, outcome)
     VALUES (?, ?, ?, ?, ?, ?, 'leased')`,
    runId,
    item.id,
    attempt,
    agent.agent_id,
    agent.tag,
    state.now,
  );
  emitEvent(database, state, "work_item.leased", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    attempt,
    expires_at: iso(expiresAt),
  });
  const leased = requireItem(database, runId, item.id);
  return {
    work_item: workItemView(database, state, leased),
    lease: { attempt, expires_at: iso(expiresAt) },
  };
}

/** Extends the lease of the current attempt by the run's lease time, from now. */
export function renewLease(
  database: SqlDatabase,
  state: RunState,
  agent: AgentIdentity,
  workItemId: string,
  attempt: number,
): Contract.HeartbeatView {
  const runId = state.run.id;
  const item = requireItem(database, runId, workItemId);
  requireLiveLease(item, agent, attempt);
  const expiresAt = state.now + state.run.lease_ms;
  database.run(
    "UPDATE work_items SET lease_expires_at = ? WHERE run_id = ? AND id = ?",
    expiresAt,
    runId,
    item.id,
  );
  return { expires_at: iso(expiresAt) };
}

/** Heartbeats and failures need the item's current attempt, leased to this agent now. */
export function requireLiveLease(item: ItemRow, agent: AgentIdentity, attempt: number): void {
  if (item.status === "completed") {
    throw new DeliveryError({
      code: "ALREADY_COMPLETED",
      message: `Work item ${item.id} is already completed. Poll the inbox for more work.`,
    });
  }
  if (item.status !== "leased" || item.attempt !== attempt || item.holder_id !== agent.agent_id) {
    throw leaseLost(item, agent, attempt);
  }
}

/**
 * A completion needs the item's current attempt, held by this agent: a live lease, or one that
 * expired while nobody else claimed the item (the work is done; accepting it loses nothing).
 */
export function requireCompletableLease(
  database: SqlDatabase,
  runId: string,
  item: ItemRow,
  agent: AgentIdentity,
  attempt: number,
): void {
  const current = item.attempt === attempt && item.holder_id === agent.agent_id;
  if (current && item.status === "leased") return;
  if (current && attemptOutcome(database, runId, item.id, attempt) === "expired") return;
  throw leaseLost(item, agent, attempt);
}

/** `LEASE_LOST`, saying why the attempt is no longer current. */
function leaseLost(item: ItemRow, agent: AgentIdentity, attempt: number): DeliveryError {
  let why: string;
  if (item.attempt === 0) why = "nobody has claimed it yet";
  else if (item.attempt !== attempt) {
    why = `its current attempt is ${item.attempt}${item.holder_id === agent.agent_id ? "" : ", held by another agent"}`;
  } else if (item.holder_id !== agent.agent_id) why = "another agent holds it";
  else why = "its lease expired";
  const state = item.status === "leased" ? "" : `; the item is ${item.status.replace("_", " ")}`;
  return new DeliveryError({
    code: "LEASE_LOST",
    message: `Attempt ${attempt} of work item ${item.id} is no longer current (${why}${state}). Stop working on it and poll the inbox.`,
  });
}
