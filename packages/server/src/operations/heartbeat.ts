import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";

/** `POST /v1/work-items/{id}/heartbeat` (the `heartbeat` tool): the lease extended. */
export const heartbeat = defineHandler(operations.heartbeat, {
  handle: async ({ path, body }, { caller, service }) =>
    service.store.heartbeat(caller.runId, caller.agent, path.id, body.attempt),
});
