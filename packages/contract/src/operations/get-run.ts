import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runIdParameter } from "../parameters.ts";
import { runView } from "../schemas.ts";

/** `GET /v1/runs/{run_id}`: a run and where its stages stand. */
export const getRun = defineOperation({
  id: "getRun",
  method: "GET",
  path: "/v1/runs/{run_id}",
  audience: "admin or agent",
  summary: "A run with its status and per-stage item counts",
  description:
    "`status` is `active`, `blocked` while a dead-lettered item waits for a requeue, `completed` after the last stage, or `canceled` (with `canceled_at` and `cancel_reason`) after `POST /v1/runs/{run_id}/cancel`. An agent sees its own run only.",
  tag: "runs",
  input: { path: z.strictObject({ run_id: runIdParameter }) },
  output: { kind: "json", status: 200, body: runView, description: "The run" },
  errors: ["RUN_NOT_FOUND"],
  client: { method: "getRun" },
});
