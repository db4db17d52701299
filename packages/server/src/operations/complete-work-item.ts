import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";
import { describeReceipt, describeSettled } from "../execution/work-item-span.ts";

/**
 * `POST /v1/work-items/{id}/complete` (the `complete_work_item` tool, an A2A agent's result):
 * the artifact or review stored, once per idempotency key.
 */
export const completeWorkItem = defineHandler(operations.completeWorkItem, {
  handle: async ({ path, body, idempotency }, { caller, service }) =>
    service.store.complete(caller.runId, caller.agent, path.id, body, idempotency),
  idempotencyScope: "complete",
  span: {
    name: "complete work_item",
    workItemId: ({ path }) => path.id,
    describe: (span, completion, { body }) => {
      describeSettled(span, body.attempt, completion.status);
      describeReceipt(span, body.context_sha256, completion.warning);
    },
  },
});
