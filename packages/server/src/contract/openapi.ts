import { schemaNames } from "@task-context/protocols";
import type { Hono, MiddlewareHandler } from "hono";
import { describeRoute, generateSpecs, resolver, uniqueSymbol } from "hono-openapi";
import {
  type DeliveryErrorCode,
  type DeliveryErrorStatus,
  deliveryErrorStatus,
} from "../delivery/delivery-error.ts";
import { errorBody } from "./schemas.ts";

/** Who may call an operation. */
export type Audience = "public" | "admin" | "agent" | "admin or agent" | "admin or view link";

/**
 * The codes an operation answers with. `NOT_FOUND` and `METHOD_NOT_ALLOWED` answer requests that
 * match no operation; nothing answers `SERVICE_UNAVAILABLE` yet.
 */
export type OperationErrorCode = Exclude<
  DeliveryErrorCode,
  "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SERVICE_UNAVAILABLE"
>;

/** What an error status means, on every operation that can answer it. */
const statusMeanings: Record<DeliveryErrorStatus, string> = {
  400: "The request breaks the contract (unknown field, wrong type, bad stage graph, text that is not well-formed Unicode in the body, path or query string): `issues` point at each field",
  401: "No token, or a token that is not valid",
  403: "The token may not do this (an agent on an admin endpoint, the admin on an agent's, a reviewer claiming the review of its own artifact)",
  404: "No such run, work item, artifact or schema for this token (another run's token gets 404 too)",
  405: "The path has no such method",
  409: "The state forbids it: tag taken, item not on offer, lease lost, already completed, not dead-lettered",
  413: "The body is larger than the limit (1 MiB by default)",
  415: "The body is not declared as JSON",
  422: "Idempotency-Key reused with another body, a completion that does not fit the work item, or (secrets policy refuse) a new run that holds a secret, an A2A agent whose card cannot be read or whose skills cover no stage asked for",
  429: "Too many requests for this token or address: wait Retry-After seconds",
  500: "The service failed to answer: try again, and report it if it keeps failing",
  503: "The service cannot answer now: try again later",
};

/** An example answer of each code: what the service says, and the issues where it lists some. */
const errorExamples: Record<
  OperationErrorCode,
  { error: string; issues?: { path: string; message: string }[] }
> = {
  INVALID_REQUEST: {
    error: "The request body does not match the contract. Fix the issues listed.",
    issues: [{ path: "/lease_ms", message: "lease_ms must be at least 100, not the number 50." }],
  },
  INVALID_STAGES: {
    error: "The run's stages do not form a graph the service can run. Fix the issues listed.",
    issues: [
      {
        path: "/stages/1/reviews",
        message: 'stages[1].reviews "drafts" is not the id of an earlier task stage.',
      },
    ],
  },
  SECRET_IN_CONTEXT: {
    error:
      'The run holds 1 secret: openai-api-key in /goal (line 1). Nothing was stored, because the service\'s secrets policy is "refuse": remove it and pass credentials another way.',
    issues: [
      {
        path: "/goal",
        message:
          "This looks like an OpenAI API key (openai-api-key, line 1): remove it; every agent of the run would receive it.",
      },
    ],
  },
  AGENT_CARD_INVALID: {
    error:
      "The A2A agent card at https://illustrator.example.com/.well-known/agent-card.json answered HTTP 404. Check the agent's URL and that it serves an A2A 1.0 agent card there.",
  },
  AGENT_SKILLS_MISMATCH: {
    error:
      'The skills the agent card of "Illustrator" declares do not cover the available_skills of the stages asked for. Register an agent whose card declares them, or name other stages.',
    issues: [
      {
        path: "/stages/draft",
        message:
          'Stage "draft" needs web_search, which the agent card of "Illustrator" does not declare (as a skill id or tag).',
      },
    ],
  },
  UNAUTHORIZED: {
    error:
      "This endpoint needs a token: send Authorization: Bearer <token> (the admin token, or an agent token from POST /v1/runs/{run_id}/agents).",
  },
  FORBIDDEN: {
    error:
      "Only the admin token may do this. Agents claim, heartbeat, complete and fail work items.",
  },
  HOST_NOT_ALLOWED: {
    error:
      'Host "evil.example.com" is not allowed on /mcp: this service answers MCP requests addressed to localhost, 127.0.0.1, [::1] only (protection against DNS rebinding). To serve it under another name, add the name to TASK_CONTEXT_ALLOWED_HOSTS.',
  },
  SELF_REVIEW: {
    error:
      "Work item wi_k33683fe0010vazf9amv7aw60q reviews your own artifact art_r04nrkd4cy0qpbhxyh41w9z3z3: another agent must review it. Claim another item.",
  },
  RUN_NOT_FOUND: {
    error:
      "No run run_qy78f9c66491mvp55vcr65r66m. Check the run id (and that your token belongs to that run).",
  },
  WORK_ITEM_NOT_FOUND: {
    error: "The run has no work item wi_x. Take work item ids from the inbox.",
  },
  ARTIFACT_NOT_FOUND: {
    error:
      "The run has no artifact art_x. Take artifact ids from work items' previous_artifacts or from artifact.created events.",
  },
  SCHEMA_NOT_FOUND: {
    error: `No published schema "work-item.v9". GET /v1/schemas lists them: ${schemaNames.join(", ")}.`,
  },
  AGENT_TAG_TAKEN: {
    error: 'The run already has an agent tagged "writer-1". Choose another tag.',
  },
  NOT_ON_OFFER: {
    error:
      "Work item wi_ffnxz1cg6f1qz0jh5rzj9twwqt is not on offer: another agent holds its lease. Poll the inbox for items you can claim.",
  },
  LEASE_LOST: {
    error:
      "Attempt 1 of work item wi_ffnxz1cg6f1qz0jh5rzj9twwqt is no longer current (its current attempt is 2, held by another agent). Stop working on it and poll the inbox.",
  },
  ALREADY_COMPLETED: {
    error:
      "Work item wi_ffnxz1cg6f1qz0jh5rzj9twwqt is already completed; a second completion is refused. Poll the inbox for more work.",
  },
  NOT_DEAD_LETTERED: {
    error:
      "Work item wi_k33683fe0010vazf9amv7aw60q is not dead-lettered (it is offered); only dead letters can be requeued.",
  },
  PAYLOAD_TOO_LARGE: {
    error:
      "The request body is larger than 1048576 bytes. Send less (store large content elsewhere and reference it).",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    error: "Send the request body as JSON, with Content-Type: application/json.",
  },
  IDEMPOTENCY_KEY_REUSED: {
    error:
      'Idempotency-Key "3f2c9a4e" was already used for another request. Use a new key for a new request, or resend the first request unchanged.',
  },
  INVALID_COMPLETION: {
    error: "The completion does not fit the work item. Fix the issues listed.",
    issues: [
      {
        path: "/review/criteria",
        message:
          'review.criteria has no entry for "readability". Give one entry per criterion of the review context.',
      },
    ],
  },
  RATE_LIMITED: {
    error: "Too many requests from this token or address. Wait 10 s (Retry-After) and slow down.",
  },
  INTERNAL_ERROR: {
    error: "The service failed to answer this request. Try again; if it keeps failing, report it.",
  },
};

/** The headers that come with an error status. */
const errorHeaders: Partial<Record<DeliveryErrorStatus, object>> = {
  401: {
    "WWW-Authenticate": {
      required: true,
      description: "How to authenticate: a bearer token",
      schema: { type: "string" },
      example: 'Bearer realm="task-context"',
    },
  },
  429: {
    "Retry-After": {
      required: true,
      description: "Seconds until this token and address may send again",
      schema: { type: "integer", minimum: 1 },
      example: 10,
    },
  },
};

/**
 * The codes every operation of an audience can answer with, besides its own. `INVALID_REQUEST`:
 * any path or query string can hold bytes that are not UTF-8.
 */
const audienceErrors: Record<Audience, readonly OperationErrorCode[]> = {
  public: ["INVALID_REQUEST", "RATE_LIMITED", "INTERNAL_ERROR"],
  admin: ["INVALID_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "RATE_LIMITED", "INTERNAL_ERROR"],
  agent: ["INVALID_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "RATE_LIMITED", "INTERNAL_ERROR"],
  "admin or agent": ["INVALID_REQUEST", "UNAUTHORIZED", "RATE_LIMITED", "INTERNAL_ERROR"],
  "admin or view link": ["INVALID_REQUEST", "UNAUTHORIZED", "RATE_LIMITED", "INTERNAL_ERROR"],
};

/** Which tokens an audience accepts (OpenAPI security requirements). */
const audienceSecurity: Record<Audience, readonly object[]> = {
  public: [],
  admin: [{ adminToken: [] }],
  agent: [{ agentToken: [] }],
  "admin or agent": [{ adminToken: [] }, { agentToken: [] }],
  "admin or view link": [{ adminToken: [] }, { viewToken: [] }],
};

/** The statuses a page answers with an HTML page; the others come before it, as JSON. */
const htmlErrorStatuses: readonly DeliveryErrorStatus[] = [401, 403, 404, 409];

/**
 * The error responses of `codes`, by status: the error schema with the status's codes as the
 * values `code` takes, and an example of each code.
 */
function errorResponses(codes: readonly OperationErrorCode[], htmlPages = false) {
  const byStatus = new Map<DeliveryErrorStatus, OperationErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = deliveryErrorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, statusCodes]) => [
        String(status),
        {
          description: statusMeanings[status],
          ...(errorHeaders[status] === undefined ? {} : { headers: errorHeaders[status] }),
          content: {
            ...(htmlPages && htmlErrorStatuses.includes(status)
              ? {
                  "text/html": {
                    schema: {
                      type: "string",
                      description:
                        "An error page saying what happened and what to do (when Accept names text/html or */*)",
                    },
                  },
                }
              : {}),
            "application/json": {
              schema: {
                type: "object",
                allOf: [{ $ref: "#/components/schemas/Error" }],
                properties: { code: { enum: statusCodes } },
              },
              examples: Object.fromEntries(
                statusCodes.map((code) => [code, { value: { ...errorExamples[code], code } }]),
              ),
            },
          },
        },
      ]),
  );
}

type Schema = Parameters<typeof resolver>[0];

const jsonContent = (
  schema: Schema,
): { "application/json": { schema: ReturnType<typeof resolver> } } => ({
  "application/json": { schema: resolver(schema) },
});

/** A JSON response of the OpenAPI document. */
export function jsonResponse(
  schema: Schema,
  description: string,
): { description: string; content: ReturnType<typeof jsonContent> } {
  return { description, content: jsonContent(schema) };
}

/**
 * `text/event-stream` content whose frames carry `component`s. OpenAPI 3.1 has no keyword for the
 * items of a stream (3.2 adds `itemSchema`), so, as tools read it for 3.1, the schema describes
 * one frame: its `id`, `event` and `data` fields, the data being the component's JSON.
 */
export function eventStreamContent(component: string, types: readonly string[]) {
  const event = {
    type: "object",
    title: "Event frame",
    properties: {
      id: {
        type: "string",
        pattern: "^[1-9][0-9]*$",
        description: "The event's seq: a reconnecting client sends the last one as Last-Event-ID",
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
  };
  const retry = {
    type: "object",
    title: "Retry frame",
    properties: {
      retry: {
        type: "string",
        pattern: "^[0-9]+$",
        description: "Milliseconds a client waits before it reconnects",
      },
    },
    required: ["retry"],
    additionalProperties: false,
  };
  return {
    "text/event-stream": {
      schema: {
        description: `One frame of the stream (the body is a sequence of them, with keep-alive comments between): \`id: <seq>\`, \`event: <type>\`, \`data: <${component} JSON>\`; the first frame is \`retry: <ms>\`, how long a client waits before it reconnects`,
        oneOf: [event, retry],
      },
    },
  };
}

/** What {@link documented} says of an operation. */
export interface OperationDescription {
  id: string;
  summary: string;
  description: string;
  tag: string;
  audience: Audience;
  responses: Record<
    number,
    ReturnType<typeof jsonResponse> | { description: string; content?: object; headers?: object }
  >;
  errors?: readonly OperationErrorCode[];
  /** Parameters no validator documents (headers). */
  parameters?: readonly object[];
  /** A request body no validator documents. */
  requestBody?: object;
  /** Whether a view link's `?view=` token is accepted too (read-only, its run only). */
  viewLinks?: boolean;
  /** A page: 401, 403, 404 and 409 are HTML pages too, for a browser. */
  htmlPages?: boolean;
}

/**
 * hono-openapi's documentation of one operation of the contract (the routes' request schemas add
 * themselves): its success responses, and the error codes it answers with besides those of its
 * audience.
 */
function operationDocumentation({
  id,
  summary,
  description,
  tag,
  audience,
  responses,
  errors = [],
  parameters,
  requestBody,
  viewLinks = false,
  htmlPages = false,
}: OperationDescription): unknown {
  const middleware = describeRoute({
    operationId: id,
    summary,
    description,
    tags: [tag],
    ...(parameters === undefined ? {} : { parameters: [...parameters] }),
    ...(requestBody === undefined ? {} : { requestBody }),
    security: [...audienceSecurity[audience], ...(viewLinks ? [{ viewToken: [] }] : [])],
    "x-audience": audience,
    responses: {
      ...Object.fromEntries(
        Object.entries(responses).map(([status, value]) => [String(status), value]),
      ),
      ...errorResponses([...errors, ...audienceErrors[audience]], htmlPages),
    },
  } as unknown as Parameters<typeof describeRoute>[0]);
  return (middleware as unknown as Record<typeof uniqueSymbol, unknown>)[uniqueSymbol];
}

/**
 * `handler`, documented as one operation of the contract for the OpenAPI document, which reads
 * the documentation from the handler (as hono-openapi's `describeRoute` attaches it). It is
 * built when a document is generated, not when the route is registered: an isolate that never
 * serves `/v1/openapi.json` or `/docs` never builds it.
 */
export function documented<Handler extends object>(
  handler: Handler,
  description: OperationDescription,
): Handler {
  let documentation: unknown;
  return Object.defineProperty(handler, uniqueSymbol, {
    enumerable: true,
    get: () => {
      documentation ??= operationDocumentation(description);
      return documentation;
    },
  });
}

/** A middleware that only documents one operation of the contract (see {@link documented}). */
export function operation(description: OperationDescription): MiddlewareHandler {
  return documented<MiddlewareHandler>(async (_c, next) => {
    await next();
  }, description);
}

/** What each path parameter of the contract is. */
const pathParameters: Record<string, { description: string; schema: object; example: string }> = {
  run_id: {
    description: "The run's id, as POST /v1/runs returned it",
    schema: { type: "string", minLength: 1 },
    example: "run_qy78f9c66491mvp55vcr65r66m",
  },
  artifact_id: {
    description:
      "An artifact's id, from a completion, a work item's previous_artifacts or an artifact.created event",
    schema: { type: "string", minLength: 1 },
    example: "art_r04nrkd4cy0qpbhxyh41w9z3z3",
  },
  id: {
    description: "The work item's id, from the inbox",
    schema: { type: "string", minLength: 1 },
    example: "wi_ffnxz1cg6f1qz0jh5rzj9twwqt",
  },
  name: {
    description: "A published schema's name (GET /v1/schemas lists them)",
    schema: { type: "string", enum: [...schemaNames] },
    example: "work-item.v1",
  },
};

type Parameter = { in: string; name: string; description?: string; schema?: object };

/** Describes the path parameters, which the routes' paths give only by name. */
function describePathParameters(
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>,
) {
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item)) {
      if (operation.parameters === undefined) continue;
      operation.parameters = operation.parameters.map((parameter) => {
        if (parameter.in !== "path" || parameter.description !== undefined) return parameter;
        const described = pathParameters[parameter.name];
        if (described === undefined) {
          throw new Error(`The path parameter ${parameter.name} of ${path} has no description.`);
        }
        return { ...parameter, ...described };
      });
    }
  }
}

/** An OpenAPI 3.1 document: what {@link openApiDocument} gives and `/v1/openapi.json` serves. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [field: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * The contract's OpenAPI 3.1 document, generated from the routes of an app `createApp` built and
 * their zod schemas; `serverUrl` is the document's server (default: the one serving it).
 */
export async function openApiDocument(
  app: Hono<never>,
  serverUrl?: string,
): Promise<OpenApiDocument> {
  const document = await generateSpecs(app as unknown as Hono, {
    documentation: {
      openapi: "3.1.0",
      info: {
        title: "task-context delivery service",
        version: "1.0.0",
        license: { name: "MIT", identifier: "MIT" },
        contact: {
          name: "task-context",
          url: "https://github.com/task-context/task-context/issues",
        },
        description:
          "Remote agents poll an inbox for work items that carry a run's goal, constraints, stage context, earlier artifacts, skills and review duties. Errors are `{ error, code, issues? }` JSON, each response listing the codes it answers with; a path this document does not list answers 404 `NOT_FOUND`, a method a path lacks 405 `METHOD_NOT_ALLOWED` with `Allow`. See https://github.com/task-context/task-context/blob/main/docs/delivery-service.md.",
      },
      servers: [
        {
          url: serverUrl ?? "/",
          description:
            serverUrl === undefined ? "The service that serves this document" : "The service",
        },
      ],
      tags: [
        { name: "runs", description: "Runs, their stages, agents, artifacts and dead letters" },
        { name: "inbox", description: "What an agent may claim" },
        { name: "work items", description: "Claim, heartbeat, complete and fail" },
        { name: "events", description: "The run's collaboration stream" },
        { name: "pages", description: "The run page, for a browser: HTML rendered on the server" },
        { name: "public", description: "Health, published schemas, validation and this document" },
      ],
      components: {
        securitySchemes: {
          adminToken: {
            type: "http",
            scheme: "bearer",
            description:
              "The admin token (TASK_CONTEXT_ADMIN_TOKEN): creates runs and agents, reads every run",
          },
          viewToken: {
            type: "apiKey",
            in: "query",
            name: "view",
            description:
              "A view link's token, as POST /v1/runs/{run_id}/view-links returned it in `url`: reads one run's page and event stream until it expires",
          },
          agentToken: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "tc_<run_id>_<agent_id>_<secret>",
            description:
              "An agent token, as POST /v1/runs/{run_id}/agents returned it (once): acts for that agent in its run only",
          },
        },
        // The error responses refer to it: every operation's, and those of no operation.
        schemas: (await resolver(errorBody).toOpenAPISchema()).components?.schemas ?? {},
      },
    },
    defaultValidationErrorResponse: false,
    excludeStaticFile: false,
  });
  describePathParameters(document.paths as never);
  return document as unknown as OpenApiDocument;
}
