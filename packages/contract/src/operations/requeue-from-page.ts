import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runIdParameter, workItemIdParameter } from "../parameters.ts";

/** `POST /runs/{run_id}/work-items/{id}/requeue`: the run page's Requeue form. */
export const requeueFromPage = defineOperation({
  id: "requeueFromPage",
  method: "POST",
  path: "/runs/{run_id}/work-items/{id}/requeue",
  audience: "admin or view link",
  summary: "The run page's Requeue form: put a dead letter back on offer",
  description:
    "What the page's Requeue button posts (`application/x-www-form-urlencoded`, the view token in the field `view`, or `?view=`, or the admin token): requeues the item like `POST /v1/runs/{run_id}/work-items/{id}/requeue` and answers 303 back to the page. A view link without requeue rights gets 403.",
  tag: "pages",
  input: { path: z.strictObject({ run_id: runIdParameter, id: workItemIdParameter }) },
  form: z.object({ view: z.string().describe("The page's view token").optional() }),
  output: {
    kind: "page",
    responses: {
      303: {
        description: "Requeued: back to the page, at the item's row",
        headers: {
          Location: { required: true, description: "The run page", schema: { type: "string" } },
        },
      },
    },
  },
  errors: [
    "FORBIDDEN",
    "RUN_NOT_FOUND",
    "WORK_ITEM_NOT_FOUND",
    "NOT_DEAD_LETTERED",
    "RUN_CANCELED",
    "PAYLOAD_TOO_LARGE",
  ],
});
