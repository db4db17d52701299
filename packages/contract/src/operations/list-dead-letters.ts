import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runIdParameter } from "../parameters.ts";
import { deadLettersView } from "../schemas.ts";

/** `GET /v1/runs/{run_id}/dead-letters`: the items that ran out of attempts. */
export const listDeadLetters = defineOperation({
  id: "listDeadLetters",
  method: "GET",
  path: "/v1/runs/{run_id}/dead-letters",
  audience: "admin",
  summary: "Dead-lettered work items with their attempt history",
  description:
    "An item is dead-lettered after `max_attempts` failed or expired attempts; the run is `blocked` until it is requeued. Nothing is dropped.",
  tag: "runs",
  input: { path: z.strictObject({ run_id: runIdParameter }) },
  output: { kind: "json", status: 200, body: deadLettersView, description: "The dead letters" },
  errors: ["RUN_NOT_FOUND"],
  client: { method: "listDeadLetters" },
});
