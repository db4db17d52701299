import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { workItemIdParameter } from "../parameters.ts";
import { completeBody, completionView } from "../schemas.ts";

/** `POST /v1/work-items/{id}/complete`: the item's artifact or review, stored once. */
export const completeWorkItem = defineOperation({
  id: "completeWorkItem",
  method: "POST",
  path: "/v1/work-items/{id}/complete",
  audience: "agent",
  summary: "Complete a work item: an artifact for a task item, a review for a review item",
  description:
    "Only the current attempt may complete (or an expired one nobody else claimed since). A review's criteria must be exactly the review stage's; the feedback is linked to the reviewed artifact and emitted as a review.feedback event in the same transaction. Text is stored exactly as sent; passages of the artifact's title and content, or of the review's summary and comments, that pose as instructions or as a task-context format are named in the answer's `warning` and in a content.flagged event.",
  tag: "work items",
  input: { path: z.strictObject({ id: workItemIdParameter }), body: completeBody },
  idempotent: true,
  traceContext: true,
  output: { kind: "json", status: 200, body: completionView, description: "Completed" },
  errors: [
    "INVALID_REQUEST",
    "WORK_ITEM_NOT_FOUND",
    "LEASE_LOST",
    "ALREADY_COMPLETED",
    "INVALID_COMPLETION",
    "IDEMPOTENCY_KEY_REUSED",
    "RUN_CANCELED",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
  client: { method: "complete" },
  mcp: {
    tool: "complete_work_item",
    title: "Complete a work item",
    description:
      "Completes the current attempt: `artifact` for a task item, `review` (verdict, summary, the review stage's criteria) for a review item. Only the current attempt may complete (LEASE_LOST otherwise).",
    readOnly: false,
    arguments: { id: "work_item_id" },
  },
});
