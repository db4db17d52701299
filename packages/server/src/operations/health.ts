import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";

/** `GET /healthz`: it answers, without a token or the storage. */
export const health = defineHandler(operations.health, {
  handle: async () => ({ status: "ok" as const }),
});
