import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runIdParameter } from "../parameters.ts";

/** `GET /runs/{run_id}`: the run page, for a browser. */
export const runPage = defineOperation({
  id: "runPage",
  method: "GET",
  path: "/runs/{run_id}",
  audience: "admin or view link",
  summary: "The run page: what every agent received and did, live",
  description:
    "An HTML page, complete without JavaScript: the goal, constraints and status; the stages with their item counts; every work item with its state, attempt, holder, lease and context hash (dead letters with their history and, with requeue rights, a Requeue form); every artifact as escaped text with its reviews beside it; the events, which a small inline script keeps live over the event stream. Open it with `Authorization: Bearer <admin token>` or a view link's `?view=` token. Sent with a strict Content-Security-Policy (a per-response nonce; no other script). Errors are HTML pages too, or JSON when Accept asks for JSON only.",
  tag: "pages",
  input: { path: z.strictObject({ run_id: runIdParameter }) },
  output: {
    kind: "page",
    responses: {
      200: { description: "The page", content: { "text/html": { schema: { type: "string" } } } },
    },
  },
  errors: ["RUN_NOT_FOUND"],
});
