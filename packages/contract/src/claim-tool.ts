import type { McpTool } from "./define-operation.ts";

/**
 * The MCP tool of both claims: with `work_item_id`, this item's (`claimWorkItem`); without it,
 * the oldest on offer, or up to `max_items` of them (`claimNext`).
 */
export const claimTool: McpTool = {
  tool: "claim_work_item",
  title: "Claim a work item",
  description:
    "Claims the item `work_item_id`, or without it the oldest item on offer (waiting up to `wait` seconds), or up to `max_items` of them listed in `claims`: a new attempt with a lease each. Heartbeat before `lease.expires_at`; complete or fail with `lease.attempt`. Answers no fields when nothing is on offer. `wait` and `max_items` are refused with `work_item_id`.",
  readOnly: false,
  arguments: { id: "work_item_id" },
};
