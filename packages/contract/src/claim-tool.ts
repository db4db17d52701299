import type { McpTool } from "./define-operation.ts";

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
