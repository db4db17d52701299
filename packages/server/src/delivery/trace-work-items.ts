import { DELIVERY_ATTRIBUTES, GEN_AI_ATTRIBUTES } from "@task-context/core";
import { type DeliverySpan, traceDelivery } from "@task-context/core/tracing";
import type { AgentIdentity, DeliveryStore } from "./delivery-store.ts";

/** How core's `checkReceipt` starts the warning of a stale receipt. */
const STALE_WARNING_START = "Stale context: ";

/** The attributes of a work item's span beyond the common delivery ones. */
export const WORK_ITEM_ATTRIBUTES = {
  /** The run the work item belongs to. */
  runId: "task_context.run.id",
  /** The attempt (lease) the claim opened or the completion or failure acted for. */
  attempt: "task_context.work_item.attempt",
  /** The item's status afterwards: `claimed`, `completed`, `offered` or `dead_lettered`. */
  status: "task_context.work_item.status",
} as const;

type Operation = "claim" | "complete" | "fail";

/** Runs one operation of `agent` on a work item of `runId` inside its delivery span. */
function traceOperation<Result>(
  operation: Operation,
  runId: string,
  agent: AgentIdentity,
  workItemId: string | undefined,
  act: () => Promise<Result>,
  describe: (result: Result, span: DeliverySpan) => void,
): Promise<Result> {
  return traceDelivery(
    {
      tracer: "@task-context/server",
      name: `${operation} work_item`,
      recipient: { kind: "work-item", id: workItemId },
      attributes: {
        [WORK_ITEM_ATTRIBUTES.runId]: runId,
        [GEN_AI_ATTRIBUTES.agentId]: agent.agent_id,
      },
    },
    async (span) => {
      const result = await act();
      describe(result, span);
      return result;
    },
  );
}

/** Reads `context_sha256` of a work item, when the service puts it there. */
function contextHashOf(item: object): string | undefined {
  const hash = (item as { context_sha256?: unknown }).context_sha256;
  return typeof hash === "string" ? hash : undefined;
}

/** Records the attempt a completion or failure acted for and the item's status after it. */
const describeSettled =
  (attempt: number) =>
  ({ status }: { status: string }, span: DeliverySpan) =>
    span.setAttributes({
      [WORK_ITEM_ATTRIBUTES.attempt]: attempt,
      [WORK_ITEM_ATTRIBUTES.status]: status,
    });

/**
 * The store with a delivery span around every claim, completion and failure of a work item —
 * `claim work_item`, `complete work_item`, `fail work_item` — so the HTTP routes and the `/mcp`
 * tools, which both act through the store, are traced in one place. A claim-next with nothing on
 * offer ends with the outcome `empty`; a refused request with the error's code as `error.type`.
 */
export function traceWorkItems(store: DeliveryStore): DeliveryStore {
  const traced: Pick<DeliveryStore, Operation> = {
    claim: (runId, agent, workItemId) =>
      traceOperation(
        "claim",
        runId,
        agent,
        workItemId,
        () => store.claim(runId, agent, workItemId),
        (claimed, span) => {
          if (claimed === undefined) return span.setOutcome("empty");
          const hash = contextHashOf(claimed.work_item);
          span.setAttributes({
            [DELIVERY_ATTRIBUTES.recipientId]: claimed.work_item.id,
            [WORK_ITEM_ATTRIBUTES.attempt]: claimed.work_item.attempt,
            [WORK_ITEM_ATTRIBUTES.status]: "claimed",
            ...(hash === undefined ? {} : { [DELIVERY_ATTRIBUTES.contextSha256]: hash }),
          });
        },
      ),
    complete: (runId, agent, workItemId, body, idempotency) =>
      traceOperation(
        "complete",
        runId,
        agent,
        workItemId,
        () => store.complete(runId, agent, workItemId, body, idempotency),
        (completion, span) => {
          describeSettled(body.attempt)(completion, span);
          // The receipt the agent quoted back, and whether it was stale: the answer's warning then
          // starts with core's stale-receipt sentence (a warning about the content follows it).
          if (body.context_sha256 !== undefined) {
            span.setAttributes({
              [DELIVERY_ATTRIBUTES.contextQuotedSha256]: body.context_sha256,
              [DELIVERY_ATTRIBUTES.contextStale]:
                completion.warning?.startsWith(STALE_WARNING_START) === true,
            });
          }
        },
      ),
    fail: (runId, agent, workItemId, body, idempotency) =>
      traceOperation(
        "fail",
        runId,
        agent,
        workItemId,
        () => store.fail(runId, agent, workItemId, body, idempotency),
        describeSettled(body.attempt),
      ),
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === "claim" || key === "complete" || key === "fail") return traced[key];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
