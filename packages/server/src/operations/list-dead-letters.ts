import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";

/** `GET /v1/runs/{run_id}/dead-letters`: the dead letters with their attempts. */
export const listDeadLetters = defineHandler(operations.listDeadLetters, {
  handle: async ({ path }, { service }) => ({
    dead_letters: await service.store.deadLetters(path.run_id),
  }),
});
