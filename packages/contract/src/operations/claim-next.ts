import { claimTool } from "../claim-tool.ts";
import { defineOperation } from "../define-operation.ts";
import { claimNextQuery, claimView } from "../schemas.ts";

/** `POST /v1/inbox/claim-next`: a new attempt on the oldest item on offer to the agent. */
export const claimNext = defineOperation({
  id: "claimNext",
  method: "POST",
  path: "/v1/inbox/claim-next",
  audience: "agent",
  summary: "Claim the oldest work item on offer to this agent",
  description:
    "Starts a new attempt with a lease. With `wait`, the request is held until an offer appears or the wait ends; 204 when nothing is on offer.",
  tag: "inbox",
  input: { query: claimNextQuery },
  traceContext: true,
  output: {
    kind: "json",
    status: 200,
    body: claimView,
    description: "The work item and its lease",
    empty: { status: 204, description: "Nothing on offer" },
  },
  errors: ["INVALID_REQUEST", "RUN_CANCELED", "PAYLOAD_TOO_LARGE"],
  client: { method: "claimNext" },
  mcp: claimTool,
});
