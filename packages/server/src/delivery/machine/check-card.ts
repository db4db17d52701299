// An A2A agent's card read again (../../a2a/card-refresh.ts): the endpoint it leaves — the new
// card, or the last good one with the failed check — stored, and what changed or why the card
// was not taken recorded as an event of the run.
import type { CollaborationEvent } from "@task-context/protocols";
import { DeliveryError } from "../delivery-error.ts";
import type { A2aEndpoint } from "../delivery-store.ts";
import type { Draft } from "./draft.ts";

/** What a card check of one agent leaves behind. */
export interface CardCheck {
  agentId: string;
  /** The agent's endpoint after the check (its card, credentials and last check). */
  endpoint: A2aEndpoint;
  /** What changed of the card (an `agent.card_changed` event), when it did. */
  changes?: Extract<CollaborationEvent, { type: "agent.card_changed" }>["changes"] | undefined;
  /** Why the card read was not taken (an `agent.card_check_failed` event), when it was not. */
  failure?: string | undefined;
}

/** Stores the checked endpoint and records the check's event, if it has one. */
export function checkCard(draft: Draft, check: CardCheck): undefined {
  const agent = draft.state.agents.get(check.agentId);
  if (agent === undefined || agent.a2a_stages === null) {
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message: `The run has no A2A agent ${check.agentId}: only an A2A agent's card is checked.`,
    });
  }
  draft.write({ type: "updateAgentEndpoint", agent_id: check.agentId, endpoint: check.endpoint });
  if (check.changes !== undefined && check.changes.length > 0) {
    draft.emit("agent.card_changed", { agent_tag: agent.tag, changes: check.changes });
  }
  if (check.failure !== undefined) {
    draft.emit("agent.card_check_failed", { agent_tag: agent.tag, reason: check.failure });
  }
  return undefined;
}
