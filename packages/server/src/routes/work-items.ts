import type { Context } from "hono";
import { jsonResponse } from "../contract/openapi.ts";
import {
  claimView,
  completeBody,
  completionView,
  failBody,
  failureView,
  heartbeatBody,
  heartbeatView,
} from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { IdempotencyKey } from "../delivery/delivery-store.ts";
import { idempotencyKeyOf, idempotencyKeyPattern } from "../http/idempotency.ts";
import { traceContextHeaders } from "../http/trace-context.ts";
import { jsonBody } from "../http/validation.ts";
import { type App, endpoint, type RouteContext } from "./route-context.ts";

/**
 * The request's `Idempotency-Key` with a hash of what it is sent with (the operation, the item
 * and the validated body, whose keys are in schema order).
 */
async function idempotencyKey(
  c: Context,
  operationName: string,
  workItemId: string,
  body: unknown,
): Promise<IdempotencyKey | undefined> {
  const key = c.req.header("Idempotency-Key");
  if (key === undefined) return undefined;
  if (!idempotencyKeyPattern.test(key)) {
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message:
        "Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice).",
      issues: [{ path: "/headers/idempotency-key", message: "1 to 255 visible ASCII characters" }],
    });
  }
  return idempotencyKeyOf(key, operationName, workItemId, body);
}

const idempotencyHeader = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "The same key with the same body answers the first answer again; with another body, 422.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
} as const;

/** Claim, heartbeat, complete and fail: the agent's side of a lease. */
export function workItemRoutes(app: App, context: RouteContext): void {
  const { store } = context;

  app.post(
    "/v1/work-items/:id/claim",
    endpoint(context, {
      id: "claimWorkItem",
      summary: "Claim one work item: a new attempt with a lease",
      description:
        "Only an item on offer can be claimed; a review item is never claimable by the author of the artifact it reviews (`SELF_REVIEW`).",
      tag: "work items",
      audience: "agent",
      parameters: traceContextHeaders,
      responses: { 200: jsonResponse(claimView, "The work item and its lease") },
      errors: ["WORK_ITEM_NOT_FOUND", "SELF_REVIEW", "NOT_ON_OFFER", "PAYLOAD_TOO_LARGE"],
    }),
    async (c) => {
      const { runId, agent } = c.var.caller;
      return c.json(await store.claim(runId, agent, c.req.param("id")));
    },
  );

  app.post(
    "/v1/work-items/:id/heartbeat",
    endpoint(context, {
      id: "heartbeat",
      summary: "Extend the lease of the current attempt",
      description:
        "The lease runs `lease_ms` from now again. Only the current attempt may heartbeat: another gets `LEASE_LOST` and should stop working on the item.",
      tag: "work items",
      audience: "agent",
      responses: { 200: jsonResponse(heartbeatView, "The lease's new expiry") },
      errors: [
        "INVALID_REQUEST",
        "WORK_ITEM_NOT_FOUND",
        "LEASE_LOST",
        "ALREADY_COMPLETED",
        "PAYLOAD_TOO_LARGE",
        "UNSUPPORTED_MEDIA_TYPE",
      ],
    }),
    jsonBody(heartbeatBody),
    async (c) => {
      const { runId, agent } = c.var.caller;
      const { attempt } = c.req.valid("json");
      return c.json(await store.heartbeat(runId, agent, c.req.param("id"), attempt));
    },
  );

  app.post(
    "/v1/work-items/:id/complete",
    endpoint(context, {
      id: "completeWorkItem",
      summary: "Complete a work item: an artifact for a task item, a review for a review item",
      description:
        "Only the current attempt may complete (or an expired one nobody else claimed since). A review's criteria must be exactly the review stage's; the feedback is linked to the reviewed artifact and emitted as a review.feedback event in the same transaction. Text is stored exactly as sent; passages of the artifact's title and content, or of the review's summary and comments, that pose as instructions or as a task-context format are named in the answer's `warning` and in a content.flagged event.",
      tag: "work items",
      audience: "agent",
      parameters: [idempotencyHeader, ...traceContextHeaders],
      responses: { 200: jsonResponse(completionView, "Completed") },
      errors: [
        "INVALID_REQUEST",
        "WORK_ITEM_NOT_FOUND",
        "LEASE_LOST",
        "ALREADY_COMPLETED",
        "INVALID_COMPLETION",
        "IDEMPOTENCY_KEY_REUSED",
        "PAYLOAD_TOO_LARGE",
        "UNSUPPORTED_MEDIA_TYPE",
      ],
    }),
    jsonBody(completeBody),
    async (c) => {
      const { runId, agent } = c.var.caller;
      const workItemId = c.req.param("id");
      const body = c.req.valid("json");
      const key = await idempotencyKey(c, "complete", workItemId, body);
      return c.json(await store.complete(runId, agent, workItemId, body, key));
    },
  );

  app.post(
    "/v1/work-items/:id/fail",
    endpoint(context, {
      id: "failWorkItem",
      summary: "Give up the current attempt: back on offer, or dead-lettered after max_attempts",
      description:
        "Only the current attempt may fail. The item goes back on offer with the next attempt, or to the dead letters (the run becomes `blocked`) when it has had `max_attempts`.",
      tag: "work items",
      audience: "agent",
      parameters: [idempotencyHeader, ...traceContextHeaders],
      responses: { 200: jsonResponse(failureView, "Where the item went") },
      errors: [
        "INVALID_REQUEST",
        "WORK_ITEM_NOT_FOUND",
        "LEASE_LOST",
        "ALREADY_COMPLETED",
        "IDEMPOTENCY_KEY_REUSED",
        "PAYLOAD_TOO_LARGE",
        "UNSUPPORTED_MEDIA_TYPE",
      ],
    }),
    jsonBody(failBody),
    async (c) => {
      const { runId, agent } = c.var.caller;
      const workItemId = c.req.param("id");
      const body = c.req.valid("json");
      const key = await idempotencyKey(c, "fail", workItemId, body);
      return c.json(await store.fail(runId, agent, workItemId, body, key));
    },
  );
}
