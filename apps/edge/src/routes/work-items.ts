import { sha256Hex } from "@task-context/core/internal";
import type { Context } from "hono";
import { jsonResponse, operation } from "../contract/openapi.ts";
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
import { requireAgent } from "../http/auth.ts";
import { jsonBody, requireJsonBody } from "../http/validation.ts";
import { type App, authorize, type RouteContext } from "./route-context.ts";

const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's `Idempotency-Key` with a hash of what it is sent with (the operation, the item
 * and the validated body, whose keys are in schema order).
 */
async function idempotencyKey(
  c: Context,
  operationName: string,
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
  const request = JSON.stringify([operationName, c.req.param("id"), body]);
  return { key, requestHash: await sha256Hex(request) };
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
    operation({
      id: "claimWorkItem",
      summary: "Claim one work item: a new attempt with a lease",
      tag: "work items",
      audience: "agent",
      responses: { 200: jsonResponse(claimView, "The work item and its lease") },
      errors: [403, 404, 409],
    }),
    authorize(context, "agent"),
    async (c) => {
      const { runId, agent } = requireAgent(c.var.caller);
      return c.json(await store.claim(runId, agent, c.req.param("id")));
    },
  );

  app.post(
    "/v1/work-items/:id/heartbeat",
    operation({
      id: "heartbeat",
      summary: "Extend the lease of the current attempt",
      tag: "work items",
      audience: "agent",
      responses: { 200: jsonResponse(heartbeatView, "The lease's new expiry") },
      errors: [400, 403, 404, 409, 413, 415],
    }),
    authorize(context, "agent"),
    requireJsonBody,
    jsonBody(heartbeatBody),
    async (c) => {
      const { runId, agent } = requireAgent(c.var.caller);
      const { attempt } = c.req.valid("json");
      return c.json(await store.heartbeat(runId, agent, c.req.param("id"), attempt));
    },
  );

  app.post(
    "/v1/work-items/:id/complete",
    operation({
      id: "completeWorkItem",
      summary: "Complete a work item: an artifact for a task item, a review for a review item",
      description:
        "Only the current attempt may complete (or an expired one nobody else claimed since). A review's criteria must be exactly the review stage's; the feedback is linked to the reviewed artifact and emitted as a review.feedback event in the same transaction.",
      tag: "work items",
      audience: "agent",
      responses: { 200: jsonResponse(completionView, "Completed") },
      errors: [400, 403, 404, 409, 413, 415, 422],
      parameters: [idempotencyHeader],
    }),
    authorize(context, "agent"),
    requireJsonBody,
    jsonBody(completeBody),
    async (c) => {
      const { runId, agent } = requireAgent(c.var.caller);
      const body = c.req.valid("json");
      const key = await idempotencyKey(c, "complete", body);
      return c.json(await store.complete(runId, agent, c.req.param("id"), body, key));
    },
  );

  app.post(
    "/v1/work-items/:id/fail",
    operation({
      id: "failWorkItem",
      summary: "Give up the current attempt: back on offer, or dead-lettered after max_attempts",
      tag: "work items",
      audience: "agent",
      responses: { 200: jsonResponse(failureView, "Where the item went") },
      errors: [400, 403, 404, 409, 413, 415, 422],
      parameters: [idempotencyHeader],
    }),
    authorize(context, "agent"),
    requireJsonBody,
    jsonBody(failBody),
    async (c) => {
      const { runId, agent } = requireAgent(c.var.caller);
      const body = c.req.valid("json");
      const key = await idempotencyKey(c, "fail", body);
      return c.json(await store.fail(runId, agent, c.req.param("id"), body, key));
    },
  );
}
