import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";

/** `POST /v1/runs/{run_id}/cancel`: the run canceled, its items withdrawn; the run as it is. */
export const cancelRun = defineHandler(operations.cancelRun, {
  handle: async ({ path, body }, { service }) => service.store.cancelRun(path.run_id, body.reason),
});
