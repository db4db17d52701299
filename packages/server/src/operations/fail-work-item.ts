import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";
import { describeSettled } from "../execution/work-item-span.ts";

/**
 * `POST /v1/work-items/{id}/fail` (the `fail_work_item` tool, an A2A agent's failure): the
 * attempt given up, once per idempotency key.
 */
export const failWorkItem = defineHandler(operations.failWorkItem, {
  handle: async ({ path, body, idempotency }, { caller, service }) =>
    service.store.fail(caller.runId, caller.agent, path.id, body, idempotency),
  idempotencyScope: "fail",
  span: {
    name: "fail work_item",
    workItemId: ({ path }) => path.id,
    describe: (span, failure, { body }) => describeSettled(span, body.attempt, failure.status),
  },
});
