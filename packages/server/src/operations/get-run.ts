import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";

/** `GET /v1/runs/{run_id}`: the run with its stages' item counts. */
export const getRun = defineHandler(operations.getRun, {
  handle: async ({ path }, { service }) => service.store.getRun(path.run_id),
});
