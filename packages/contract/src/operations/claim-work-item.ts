import * as z from "zod";
import { defineOperation, type McpTool } from "../define-operation.ts";
import { workItemIdParameter } from "../parameters.ts";
import { claimView } from "../schemas.ts";

/**
 * The MCP tool of both claims: with `work_item_id`, this item's (`claimWorkItem`); without it,
 * the oldest on offer (`claimNext`).
 */
export const claimTool: McpTool = {
  tool: "claim_work_item",
  title: "Claim a work item",
  description:
    "Claims the item `work_item_id`, or without it the oldest item on offer (waiting up to `wait` seconds): a new attempt with a lease. Heartbeat before `lease.expires_at`; complete or fail with `lease.attempt`. Answers no fields when nothing is on offer.",
  readOnly: false,
  arguments: { id: "work_item_id" },
};

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
  errors: ["WORK_ITEM_NOT_FOUND", "SELF_REVIEW", "NOT_ON_OFFER", "PAYLOAD_TOO_LARGE"],
  client: { method: "claim" },
  mcp: claimTool,
});
