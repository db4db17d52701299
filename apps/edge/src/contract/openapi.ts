import type { Hono } from "hono";
import { describeRoute, generateSpecs, resolver } from "hono-openapi";
import { errorBody } from "./schemas.ts";

/** Who may call an operation. */
export type Audience = "public" | "admin" | "agent" | "admin or agent";

/** What an error status means on every operation that can answer it. */
const errorMeanings: Record<number, string> = {
  400: "The request breaks the contract (unknown field, wrong type, bad stage graph): `issues` point at each field",
  401: "No token, or a token that is not valid",
  403: "The token may not do this (an agent on an admin endpoint, a reviewer claiming its own artifact's review)",
  404: "No such run, work item or artifact for this token (another run's token gets 404 too)",
  409: "The state forbids it: tag taken, item not on offer, lease lost, already completed, not dead-lettered",
  413: "The body is larger than the limit (1 MiB by default)",
  415: "The body is not JSON",
  422: "Idempotency-Key reused with another body, or a completion that does not fit the work item",
  429: "Too many requests for this token or address: wait Retry-After seconds",
};

type Schema = Parameters<typeof resolver>[0];

const jsonContent = (schema: Schema) => ({ "application/json": { schema: resolver(schema) } });

/** A JSON response of the OpenAPI document. */
export function jsonResponse(schema: Schema, description: string) {
  return { description, content: jsonContent(schema) };
}

/**
 * `text/event-stream` content whose frames carry `component`s. OpenAPI 3.1 has no keyword for the
 * items of a stream (3.2 adds `itemSchema`), so, as tools read it for 3.1, the schema describes
 * one frame: its `id`, `event` and `data` fields, the data being the component's JSON.
 */
export function eventStreamContent(component: string, types: readonly string[]) {
  return {
    "text/event-stream": {
      schema: {
        type: "object",
        description: `One frame of the stream (the body is a sequence of them, with keep-alive comments between): \`id: <seq>\`, \`event: <type>\`, \`data: <${component} JSON>\``,
        properties: {
          id: {
            type: "string",
            pattern: "^[1-9][0-9]*$",
            description:
              "The event's seq: a reconnecting client sends the last one as Last-Event-ID",
          },
          event: { type: "string", enum: [...types], description: "The event's type" },
          data: {
            type: "string",
            contentMediaType: "application/json",
            contentSchema: { $ref: `#/components/schemas/${component}` },
          },
        },
        required: ["id", "event", "data"],
        additionalProperties: false,
      },
    },
  };
}

/** Documents one operation of the contract (the routes' request schemas add themselves). */
export function operation({
  id,
  summary,
  description,
  tag,
  audience,
  responses,
  errors = [],
  parameters,
}: {
  id: string;
  summary: string;
  description?: string;
  tag: string;
  audience: Audience;
  responses: Record<
    number,
    ReturnType<typeof jsonResponse> | { description: string; content?: object }
  >;
  errors?: number[];
  /** Parameters no validator documents (headers). */
  parameters?: readonly object[];
}) {
  const statuses = audience === "public" ? [...errors, 429] : [...errors, 401, 429];
  const errorResponses = Object.fromEntries(
    [...new Set(statuses)]
      .sort()
      .map((status) => [
        String(status),
        jsonResponse(errorBody, errorMeanings[status] ?? "Refused"),
      ]),
  );
  return describeRoute({
    operationId: id,
    summary,
    ...(description === undefined ? {} : { description }),
    tags: [tag],
    ...(parameters === undefined ? {} : { parameters: [...parameters] }),
    ...(audience === "public" ? {} : { security: [{ bearer: [] }] }),
    "x-audience": audience,
    responses: {
      ...Object.fromEntries(
        Object.entries(responses).map(([status, value]) => [String(status), value]),
      ),
      ...errorResponses,
    },
  } as unknown as Parameters<typeof describeRoute>[0]);
}

/** The contract's OpenAPI 3.1 document, generated from the app's routes and their zod schemas. */
export async function openApiDocument(app: Hono<never>, serverUrl?: string) {
  const document = await generateSpecs(app as unknown as Hono, {
    documentation: {
      openapi: "3.1.0",
      info: {
        title: "task-context delivery service",
        version: "1.0.0",
        description:
          "Remote agents poll an inbox for work items that carry a run's goal, constraints, stage context, earlier artifacts, skills and review duties. Errors are `{ error, code, issues? }` JSON. See https://github.com/task-context/task-context/blob/main/docs/delivery-service.md.",
      },
      ...(serverUrl === undefined ? {} : { servers: [{ url: serverUrl }] }),
      tags: [
        { name: "runs", description: "Runs, their stages, agents and dead letters (admin)" },
        { name: "inbox", description: "What an agent may claim" },
        { name: "work items", description: "Claim, heartbeat, complete and fail" },
        { name: "events", description: "The run's collaboration stream" },
        { name: "public", description: "Health, published schemas, validation and this document" },
      ],
      components: {
        securitySchemes: {
          bearer: {
            type: "http",
            scheme: "bearer",
            description:
              "The admin token (TASK_CONTEXT_ADMIN_TOKEN) or an agent token from POST /v1/runs/{run_id}/agents",
          },
        },
      },
    },
    defaultValidationErrorResponse: false,
    excludeStaticFile: false,
  });
  return document;
}
