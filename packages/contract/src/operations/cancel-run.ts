import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runIdParameter } from "../parameters.ts";
import { runView } from "../schemas.ts";

/** `POST /v1/runs/{run_id}/cancel`'s body: why, optionally (kept with the run and its event). */
export const cancelRunBody = z
  .strictObject({
    reason: z
      .string()
      .min(1)
      .max(1000)
      .regex(/^[^\r\n]*$/, "must be one line")
      .optional()
      .describe(
        "Why the run is canceled (one line, at most 1000 characters): shown with the run, in its run.canceled event and in the refusals its agents get",
      ),
  })
  .meta({ id: "CancelRun", examples: [{ reason: "the brief changed" }] });

/** A cancel request's body. */
export type CancelRunInput = z.infer<typeof cancelRunBody>;

/** `POST /v1/runs/{run_id}/cancel`: the run stopped for good, its work items withdrawn. */
export const cancelRun = defineOperation({
  id: "cancelRun",
  method: "POST",
  path: "/v1/runs/{run_id}/cancel",
  audience: "admin",
  summary: "Cancel a run: its work items are withdrawn and nothing of it is accepted any more",
  description:
    "The run's status becomes `canceled` (terminal, as `completed` is) with one `run.canceled` event. Its items on offer or leased are withdrawn: claims, heartbeats, completions and failures of the run are refused with `409 RUN_CANCELED`, which says when it was canceled; A2A tasks in flight are canceled at their agents (best effort). Idempotent: canceling a canceled run answers the run as it is. A completed run cannot be canceled (`409 RUN_COMPLETED`).",
  tag: "runs",
  input: { path: z.strictObject({ run_id: runIdParameter }), body: cancelRunBody },
  output: { kind: "json", status: 200, body: runView, description: "The run, canceled" },
  errors: [
    "INVALID_REQUEST",
    "RUN_NOT_FOUND",
    "RUN_COMPLETED",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
  client: { method: "cancelRun" },
});
