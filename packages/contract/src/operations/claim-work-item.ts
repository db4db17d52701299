import * as z from "zod";
import { claimTool } from "../claim-tool.ts";
import { defineOperation } from "../define-operation.ts";
import { workItemIdParameter } from "../parameters.ts";
import { claimView } from "../schemas.ts";

/** `POST /v1/work-items/{id}/claim`: a new attempt on one item, with a lease. */
export const claimWorkItem = defineOperation({
  id: "claimWorkItem",
  method: "POST",
  path: "/v1/work-items/{id}/claim",
  audience: "agent",
  summary: "Claim one work item: a new attempt with a lease",
  description:
    "Only an item on offer can be claimed; a review item is never claimable by the author of the artifact it reviews (`SELF_REVIEW`).",
  tag: "work items",
  input: { path: z.strictObject({ id: workItemIdParameter }) },
  traceContext: true,
  output: {
    kind: "json",
    status: 200,
    body: claimView,
    description: "The work item and its lease",
  },
  errors: [
    "WORK_ITEM_NOT_FOUND",
    "SELF_REVIEW",
    "NOT_ON_OFFER",
    "RUN_CANCELED",
    "PAYLOAD_TOO_LARGE",
  ],
  client: { method: "claim" },
  mcp: claimTool,
});
