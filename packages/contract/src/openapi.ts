// The contract's OpenAPI 3.1 document, built from the operation registry and the zod schemas
// that validate the requests: what `GET /v1/openapi.json` serves and the typed client is
// generated from. Each operation names its typed client's method (`x-task-context-client`) and
// its audience (`x-task-context-audience`).
import type { Audience, ObjectSchema, OperationDefinition } from "./define-operation.ts";
import {
  type DeliveryErrorStatus,
  deliveryErrorStatus,
  errorExamples,
  errorHeaders,
  type OperationErrorCode,
  statusMeanings,
} from "./errors.ts";
import { openApiSchema } from "./openapi-schema.ts";
import { operationTags } from "./operation-order.ts";
import { operations } from "./operations.ts";
import { idempotencyKeyHeader, traceContextHeaders } from "./parameters.ts";
import { errorBody } from "./schemas.ts";

type Json = Record<string, unknown>;
type Components = Record<string, object>;

/**
 * The codes every operation of an audience can answer with, besides its own. `INVALID_REQUEST`:
 * any path or query string can hold bytes that are not UTF-8.
 */
export const audienceErrors: Record<Audience, readonly OperationErrorCode[]> = {
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

/**
 * `text/event-stream` content whose frames carry `component`s. OpenAPI 3.1 has no keyword for the
 * items of a stream (3.2 adds `itemSchema`), so, as tools read it for 3.1, the schema describes
 * one frame: its `id`, `event` and `data` fields, the data being the component's JSON.
 */
function eventStreamContent(component: string, types: readonly string[]) {
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

/** An OpenAPI 3.1 document: what {@link openApiDocument} gives and `/v1/openapi.json` serves. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [field: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The parameters of `part` (a query string's, a path's), each described by its schema. */
function parameters(
  where: "query" | "path",
  part: ObjectSchema | undefined,
  components: Components,
  names?: readonly string[],
): Json[] {
  if (part === undefined) return [];
  const schema = openApiSchema(part, components);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return (names ?? Object.keys(properties)).map((name) => {
    const { description, example, ...rest } = properties[name] ?? {};
    return {
      in: where,
      name,
      schema: rest,
      ...(where === "path" || required.has(name) ? { required: true } : {}),
      ...(description === undefined ? {} : { description }),
      ...(example === undefined ? {} : { example }),
    };
  });
}

/** The names of a path's parameters, in order: `/v1/runs/{run_id}` → `["run_id"]`. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
}

/** The answers of `operation` besides its errors. */
function successResponses(operation: OperationDefinition, components: Components): Json {
  const { output } = operation;
  if (output.kind === "page") return { ...output.responses };
  if (output.kind === "text") {
    const schema = output.schema === undefined ? {} : { schema: output.schema };
    return {
      [output.status]: { description: output.description, content: { [output.mediaType]: schema } },
    };
  }
  const json = output.body === undefined ? {} : { schema: openApiSchema(output.body, components) };
  const content = {
    "application/json": json,
    ...(output.stream === undefined
      ? {}
      : eventStreamContent(output.stream.component, output.stream.events)),
  };
  const empty =
    output.empty ?? (output.stream && { status: 204, description: output.stream.empty });
  return {
    [output.status]: { description: output.description, content },
    ...(empty === undefined ? {} : { [empty.status]: { description: empty.description } }),
  };
}

/** The request body of `operation`, when it takes one. */
function requestBody(operation: OperationDefinition, components: Components): Json | undefined {
  if (operation.form !== undefined) {
    const schema = openApiSchema(operation.form, components);
    return { required: false, content: { "application/x-www-form-urlencoded": { schema } } };
  }
  const body = operation.input?.body;
  if (body === undefined) return undefined;
  return {
    required: true,
    ...(operation.bodyDescription === undefined ? {} : { description: operation.bodyDescription }),
    content: { "application/json": { schema: openApiSchema(body, components) } },
  };
}

/** One operation of the document. */
function documentOperation(operation: OperationDefinition, components: Components): Json {
  const { input = {}, audience } = operation;
  const successes = successResponses(operation, components);
  const body = requestBody(operation, components);
  const all = [
    ...(operation.idempotent === true ? [idempotencyKeyHeader] : []),
    ...(operation.traceContext === true ? traceContextHeaders : []),
    ...(operation.headers ?? []),
    ...parameters("query", input.query, components),
    ...parameters("path", input.path, components, pathParameterNames(operation.path)),
  ];
  return {
    operationId: operation.id,
    summary: operation.summary,
    description: operation.description,
    tags: [operation.tag],
    ...(all.length === 0 ? {} : { parameters: all }),
    ...(body === undefined ? {} : { requestBody: body }),
    security: [
      ...audienceSecurity[audience],
      ...(operation.viewLinks === true ? [{ viewToken: [] }] : []),
    ],
    "x-audience": audience,
    "x-task-context-audience": audience,
    ...(operation.client === undefined
      ? {}
      : {
          "x-task-context-client": operation.client.method,
          ...(operation.client.streamMethod === undefined
            ? {}
            : { "x-task-context-client-stream": operation.client.streamMethod }),
        }),
    responses: {
      ...successes,
      ...errorResponses(
        [...(operation.errors ?? []), ...audienceErrors[audience]],
        operation.output.kind === "page",
      ),
    },
  };
}

/** What {@link openApiDocument} is built with. */
export interface OpenApiDocumentOptions {
  /** The document's server (default: `/`, the one serving it). */
  serverUrl?: string;
}

/**
 * The contract's OpenAPI 3.1 document: every operation of the registry with its parameters,
 * bodies, answers and the error codes it answers with, and the schemas as components.
 *
 * @example
 * ```ts source="../examples/openapi-document.ts#openApiDocument"
 * const document = openApiDocument({ serverUrl: "https://tc.example.com" });
 * const completion = document.paths["/v1/work-items/{id}/complete"]?.post as Record<string, unknown>;
 * console.log(completion["x-task-context-client"]); // complete
 * ```
 */
export function openApiDocument(options: OpenApiDocumentOptions = {}): OpenApiDocument {
  const { serverUrl } = options;
  // The error responses refer to it: every operation's, and those of no operation.
  const components: Components = {};
  openApiSchema(errorBody, components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of Object.values(operations) as OperationDefinition[]) {
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method.toLowerCase()]: documentOperation(operation, components),
    };
  }
  return {
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
    tags: operationTags.map(({ name, description }) => ({ name, description })),
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
      schemas: components,
    },
    paths,
  };
}
