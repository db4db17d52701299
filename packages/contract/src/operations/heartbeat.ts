import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { workItemIdParameter } from "../parameters.ts";
import { heartbeatBody, heartbeatView } from "../schemas.ts";

/** `POST /v1/work-items/{id}/heartbeat`: the current attempt's lease, extended. */
export const heartbeat = defineOperation({
  id: "heartbeat",
  method: "POST",
  path: "/v1/work-items/{id}/heartbeat",
  audience: "agent",
  summary: "Extend the lease of the current attempt",
  description:
    "The lease runs `lease_ms` from now again. Only the current attempt may heartbeat: another gets `LEASE_LOST` and should stop working on the item.",
  tag: "work items",
  input: { path: z.strictObject({ id: workItemIdParameter }), body: heartbeatBody },
  output: { kind: "json", status: 200, body: heartbeatView, description: "The lease's new expiry" },
  errors: [
    "INVALID_REQUEST",
    "WORK_ITEM_NOT_FOUND",
    "LEASE_LOST",
    "ALREADY_COMPLETED",
    "RUN_CANCELED",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
  client: { method: "heartbeat" },
  mcp: {
    tool: "heartbeat",
    title: "Extend the lease",
    description:
      "Extends the lease of the current attempt by the run's lease_ms. Another attempt gets LEASE_LOST: stop working on the item.",
    readOnly: false,
    arguments: { id: "work_item_id" },
  },
});
