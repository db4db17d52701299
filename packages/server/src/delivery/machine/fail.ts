// A failure: the agent gives its attempt up; the attempt counts against the item's budget (back
// on offer, or to the dead letters).
import type * as Contract from "@task-context/contract";
import type { AgentIdentity, IdempotencyKey } from "../delivery-store.ts";
import { liveLeaseRefusal } from "../rules.ts";
import type { Draft } from "./draft.ts";
import { answered, rememberAnswer } from "./idempotency.ts";
import { countFailure, requireItem } from "./items.ts";

/** Fails the agent's current attempt at the item, once per idempotency key. */
export function fail(
  draft: Draft,
  agent: AgentIdentity,
  workItemId: string,
  body: Contract.FailBody,
  idempotency?: IdempotencyKey,
): Contract.FailureView {
  const replay = answered(draft, agent, idempotency);
  if (replay !== undefined) return replay as Contract.FailureView;
  const item = requireItem(draft, workItemId);
  const refusal = liveLeaseRefusal(item, agent, body.attempt);
  if (refusal !== undefined) throw refusal;
  draft.write({
    type: "endAttempt",
    work_item_id: item.id,
    attempt: item.attempt,
    outcome: "failed",
    reason: body.reason,
    ended_at: draft.now,
  });
  const event = draft.emit("work_item.failed", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    attempt: item.attempt,
    reason: body.reason,
  });
  const status = countFailure(draft, { ...item, outcome: "failed" });
  const answer: Contract.FailureView = {
    work_item_id: item.id,
    status,
    attempts_left: Math.max(0, draft.run.max_attempts - item.failures - 1),
    event_id: event.id,
  };
  rememberAnswer(draft, agent, idempotency, answer);
  return answer;
}
