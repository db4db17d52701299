import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";

/** `POST /v1/runs/{run_id}/work-items/{id}/requeue`: the dead letter back on offer. */
export const requeueWorkItem = defineHandler(operations.requeueWorkItem, {
  handle: async ({ path }, { service }) => ({
    work_item: await service.store.requeue(path.run_id, path.id),
  }),
});
