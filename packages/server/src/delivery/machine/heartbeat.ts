// A heartbeat: the current attempt's lease runs on for the run's lease_ms, from now.
import type * as Contract from "@task-context/contract";
import type { AgentIdentity } from "../delivery-store.ts";
import { liveLeaseRefusal } from "../rules.ts";
import { type Draft, iso } from "./draft.ts";
import { requireItem } from "./items.ts";

/** Extends the lease of the agent's current attempt at the item. */
export function heartbeat(
  draft: Draft,
  agent: AgentIdentity,
  workItemId: string,
  attempt: number,
): Contract.HeartbeatView {
  const item = requireItem(draft, workItemId);
  const refusal = liveLeaseRefusal(item, agent, attempt);
  if (refusal !== undefined) throw refusal;
  const expiresAt = draft.now + draft.run.lease_ms;
  draft.putItem({ ...item, lease_expires_at: expiresAt });
  return { expires_at: iso(expiresAt) };
}
