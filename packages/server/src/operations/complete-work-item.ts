import { operations } from "@task-context/contract";
import { warnOfReceipt } from "../delivery/receipt.ts";
import { defineHandler } from "../execution/operation-handler.ts";
import { describeReceipt, describeSettled } from "../execution/work-item-span.ts";

/**
 * `POST /v1/work-items/{id}/complete` (the `complete_work_item` tool, an A2A agent's result):
 * the artifact or review stored, once per idempotency key; its receipt typed for the span, and
 * worded in the answer's warning when stale.
 */
export const completeWorkItem = defineHandler(operations.completeWorkItem, {
  handle: async ({ path, body, idempotency }, { caller, service }) =>
    service.store.complete(caller.runId, caller.agent, path.id, body, idempotency),
  answer: ({ view, receipt }, _input, { caller }) => warnOfReceipt(view, receipt, caller.agent.tag),
  idempotencyScope: "complete",
  span: {
    name: "complete work_item",
    workItemId: ({ path }) => path.id,
    describe: (span, { view, receipt }, { body }) => {
      describeSettled(span, body.attempt, view.status);
      describeReceipt(span, receipt);
    },
  },
});
