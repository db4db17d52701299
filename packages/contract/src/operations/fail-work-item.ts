import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { workItemIdParameter } from "../parameters.ts";
import { failBody, failureView } from "../schemas.ts";

/** `POST /v1/work-items/{id}/fail`: the current attempt given up. */
export const failWorkItem = defineOperation({
  id: "failWorkItem",
  method: "POST",
  path: "/v1/work-items/{id}/fail",
  audience: "agent",
  summary: "Give up the current attempt: back on offer, or dead-lettered after max_attempts",
  description:
    "Only the current attempt may fail. The item goes back on offer with the next attempt, or to the dead letters (the run becomes `blocked`) when it has had `max_attempts`.",
  tag: "work items",
  input: { path: z.strictObject({ id: workItemIdParameter }), body: failBody },
  idempotent: true,
  traceContext: true,
  output: { kind: "json", status: 200, body: failureView, description: "Where the item went" },
  errors: [
    "INVALID_REQUEST",
    "WORK_ITEM_NOT_FOUND",
    "LEASE_LOST",
    "ALREADY_COMPLETED",
    "IDEMPOTENCY_KEY_REUSED",
    "RUN_CANCELED",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
  client: { method: "fail" },
  mcp: {
    tool: "fail_work_item",
    title: "Give up an attempt",
    description:
      "Gives up the current attempt with a reason: the item goes back on offer, or to the dead letters after the run's max_attempts.",
    readOnly: false,
    arguments: { id: "work_item_id" },
  },
});
