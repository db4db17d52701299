import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runIdParameter } from "../parameters.ts";
import { createViewLinkBody, viewLinkCreated } from "../schemas.ts";

/** `POST /v1/runs/{run_id}/view-links`: a short-lived link to the run's page. */
export const createViewLink = defineOperation({
  id: "createViewLink",
  method: "POST",
  path: "/v1/runs/{run_id}/view-links",
  audience: "admin",
  summary: "A short-lived link to the run's page, for a browser",
  description:
    "The link opens `GET /runs/{run_id}` without the admin token and lets the page's script follow `GET /v1/runs/{run_id}/events` (read-only, this run only) until `expires_at`. With `can_requeue`, the page's Requeue buttons work too. The token is an HMAC keyed from the admin token: nothing is stored, and changing the admin token revokes every link.",
  tag: "runs",
  input: { path: z.strictObject({ run_id: runIdParameter }), body: createViewLinkBody },
  output: {
    kind: "json",
    status: 201,
    body: viewLinkCreated,
    description: "The link",
    noStore: true,
  },
  errors: ["INVALID_REQUEST", "RUN_NOT_FOUND", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
  client: { method: "createViewLink" },
});
