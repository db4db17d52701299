// Claiming a work item: by its id, or the oldest one on offer to the agent (never a review of its
// own artifact). A claim starts a new attempt with a lease of the run's lease_ms.
import type * as Contract from "@task-context/contract";
import type { AgentIdentity } from "../delivery-store.ts";
import { claimRefusal, isOwnWork, itemStatus } from "../rules.ts";
import { type Draft, iso } from "./draft.ts";
import { requireItem } from "./items.ts";
import type { ItemRecord } from "./run-state.ts";

/** A claim: the leased item as it stands now, and its lease. */
export interface Claimed {
  item: ItemRecord;
  lease: Contract.ClaimView["lease"];
  /** Claim-next with a limit above one: the other items claimed with it, in order. */
  more?: Claimed[];
}

/** The oldest item on offer that `agent` may claim, or undefined. */
export function nextOffer(draft: Draft, agent: AgentIdentity): ItemRecord | undefined {
  for (const item of draft.offered()) if (!isOwnWork(item, agent)) return item;
  return undefined;
}

/**
 * Claims the oldest items on offer to `agent`, up to `limit` (each a new attempt with a lease,
 * and its own events): the first, with the others in `more` when `limit` was given. Undefined
 * when nothing is on offer.
 */
export function claimNext(
  draft: Draft,
  agent: AgentIdentity,
  limit: number | undefined,
): Claimed | undefined {
  const first = claim(draft, agent, undefined);
  if (first === undefined || limit === undefined) return first;
  const more: Claimed[] = [];
  while (more.length < limit - 1) {
    const next = claim(draft, agent, undefined);
    if (next === undefined) break;
    more.push(next);
  }
  return { ...first, more };
}

/**
 * Claims `workItemId` (or, undefined, the oldest item on offer to `agent`): a new attempt with a
 * lease. Undefined when nothing is on offer (claim-next only).
 */
export function claim(
  draft: Draft,
  agent: AgentIdentity,
  workItemId: string | undefined,
): Claimed | undefined {
  let item: ItemRecord | undefined;
  if (workItemId === undefined) {
    item = nextOffer(draft, agent);
    if (item === undefined) return undefined;
  } else {
    item = requireItem(draft, workItemId);
    const refusal = claimRefusal(item, agent);
    if (refusal !== undefined) throw refusal;
  }
  const attempt = item.attempt + 1;
  const expiresAt = draft.now + draft.run.lease_ms;
  const claimed: ItemRecord = {
    ...item,
    status: itemStatus.leased,
    attempt,
    holder_id: agent.agent_id,
    holder_tag: agent.tag,
    lease_expires_at: expiresAt,
    outcome: "leased",
  };
  draft.putItem(claimed);
  draft.write({
    type: "insertAttempt",
    work_item_id: item.id,
    attempt,
    agent_id: agent.agent_id,
    agent_tag: agent.tag,
    leased_at: draft.now,
  });
  draft.emit("work_item.leased", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    attempt,
    expires_at: iso(expiresAt),
  });
  return { item: claimed, lease: { attempt, expires_at: iso(expiresAt) } };
}
