import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runIdParameter, workItemIdParameter } from "../parameters.ts";
import { requeueView } from "../schemas.ts";

/** `POST /v1/runs/{run_id}/work-items/{id}/requeue`: a dead letter back on offer. */
export const requeueWorkItem = defineOperation({
  id: "requeueWorkItem",
  method: "POST",
  path: "/v1/runs/{run_id}/work-items/{id}/requeue",
  audience: "admin",
  summary: "Put a dead-lettered work item back on offer (with a fresh failure budget)",
  description:
    "The item's attempts continue from where they stopped; the run becomes `active` again when no other dead letter holds it.",
  tag: "runs",
  input: { path: z.strictObject({ run_id: runIdParameter, id: workItemIdParameter }) },
  output: {
    kind: "json",
    status: 200,
    body: requeueView,
    description: "The work item, on offer again",
  },
  errors: [
    "RUN_NOT_FOUND",
    "WORK_ITEM_NOT_FOUND",
    "NOT_DEAD_LETTERED",
    "RUN_CANCELED",
    "PAYLOAD_TOO_LARGE",
  ],
  client: { method: "requeue" },
});
