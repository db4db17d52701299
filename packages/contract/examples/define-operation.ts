// An operation as the contract defines one (this one is an example, not one of the registry's):
// the server derives its route, tool and span, and the OpenAPI document its entry, from such a
// definition and its line in the registry (src/operations.ts).
import { defineOperation, runIdParameter, runView } from "@task-context/contract";
import * as z from "zod";

//#region defineOperation
export const getRunStatus = defineOperation({
  id: "getRunStatus",
  method: "GET",
  path: "/v1/runs/{run_id}/status",
  audience: "admin or agent",
  summary: "A run's status",
  description: "`active`, `blocked` while a dead letter waits for a requeue, or `completed`.",
  tag: "runs",
  input: { path: z.strictObject({ run_id: runIdParameter }) },
  output: {
    kind: "json",
    status: 200,
    body: z.strictObject({ status: runView.shape.status }),
    description: "Its status",
  },
  errors: ["RUN_NOT_FOUND"],
  client: { method: "getRunStatus" },
});
//#endregion
console.log(getRunStatus.method, getRunStatus.path); // GET /v1/runs/{run_id}/status
