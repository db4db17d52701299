// The delivery span around an agent's operation on a work item — `claim work_item`, `complete
// work_item`, `fail work_item` — opened by the operation executor, so that every entry (the HTTP
// routes, the /mcp tools, the A2A dispatcher) is traced in one place, as the operation's handler
// says (its `span`).

import type { ClaimView } from "@task-context/contract";
import { DELIVERY_ATTRIBUTES, GEN_AI_ATTRIBUTES } from "@task-context/core";
import { type DeliverySpan, traceDelivery } from "@task-context/core/tracing";
import type { AgentIdentity } from "../delivery/delivery-store.ts";
import type { Receipt } from "../delivery/receipt.ts";

/** The attributes of a work item's span beyond the common delivery ones. */
export const WORK_ITEM_ATTRIBUTES = {
  /** The run the work item belongs to. */
  runId: "task_context.run.id",
  /** The attempt (lease) the claim opened or the completion or failure acted for. */
  attempt: "task_context.work_item.attempt",
  /** The item's status afterwards: `claimed`, `completed`, `offered` or `dead_lettered`. */
  status: "task_context.work_item.status",
} as const;

/**
 * Runs `act` for `agent` on a work item of `runId` inside the span `name`; `describe` records
 * what its answer says. A refused request ends with the error's code as `error.type`.
 */
export function traceWorkItem<Result>(
  name: string,
  runId: string,
  agent: AgentIdentity,
  workItemId: string | undefined,
  act: () => Promise<Result>,
  describe: (span: DeliverySpan, result: Result) => void,
): Promise<Result> {
  return traceDelivery(
    {
      tracer: "@task-context/server",
      name,
      recipient: { kind: "work-item", id: workItemId },
      attributes: {
        [WORK_ITEM_ATTRIBUTES.runId]: runId,
        [GEN_AI_ATTRIBUTES.agentId]: agent.agent_id,
      },
    },
    async (span) => {
      const result = await act();
      describe(span, result);
      return result;
    },
  );
}

/** Records the attempt a completion or failure acted for and the item's status after it. */
export function describeSettled(span: DeliverySpan, attempt: number, status: string): void {
  span.setAttributes({
    [WORK_ITEM_ATTRIBUTES.attempt]: attempt,
    [WORK_ITEM_ATTRIBUTES.status]: status,
  });
}

/**
 * Records the receipt a completion quoted back and whether it was stale; nothing when it quoted
 * none (or the answer has no receipt: one kept before receipts were typed, given again).
 */
export function describeReceipt(span: DeliverySpan, receipt: Receipt | undefined): void {
  if (receipt === undefined || receipt.status === "none") return;
  span.setAttributes({
    [DELIVERY_ATTRIBUTES.contextQuotedSha256]: receipt.quoted ?? "",
    [DELIVERY_ATTRIBUTES.contextStale]: receipt.status === "stale",
  });
}

/**
 * Records what a claim delivered: the item, its new attempt and its receipt (the run context's
 * hash); a claim-next with nothing on offer ends with the outcome `empty`.
 */
export function describeClaim(span: DeliverySpan, claimed: ClaimView | undefined): void {
  if (claimed === undefined) {
    span.setOutcome("empty");
    return;
  }
  const hash = claimed.work_item.context_sha256;
  span.setAttributes({
    [DELIVERY_ATTRIBUTES.recipientId]: claimed.work_item.id,
    [WORK_ITEM_ATTRIBUTES.attempt]: claimed.work_item.attempt,
    [WORK_ITEM_ATTRIBUTES.status]: "claimed",
    ...(hash === undefined ? {} : { [DELIVERY_ATTRIBUTES.contextSha256]: hash }),
  });
}
