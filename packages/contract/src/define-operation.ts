// What one operation of the delivery service is on the wire, written once: its method and path,
// who may call it, what it takes and answers, the errors it answers with, and the names it has
// in the typed client and as an MCP tool. The server's routes, MCP tools, spans and A2A outcomes
// and the OpenAPI document are derived from these definitions (see ./operations.ts).
import type * as z from "zod";
import type { OperationErrorCode } from "./errors.ts";

/** Who may call an operation. */
export type Audience = "public" | "admin" | "agent" | "admin or agent" | "admin or view link";

/** The groups of the OpenAPI document, each operation in one. */
export type OperationTag = "runs" | "inbox" | "work items" | "events" | "pages" | "public";

/** A zod object schema: path parameters, a query string, a form. */
// biome-ignore lint/suspicious/noExplicitAny: any shape and config, as zod's own `ZodObject` bound.
export type ObjectSchema = z.ZodObject<any, any>;

/**
 * A header an operation reads, as the OpenAPI document describes it. Headers are documented,
 * not validated by a schema: the operation (or the service, for the trace context) reads them.
 */
export interface HeaderParameter {
  readonly name: string;
  readonly in: "header";
  readonly required: false;
  readonly description: string;
  readonly schema: object;
  readonly example?: string;
}

/** What an operation takes; each part validated (strict) with its schema. */
export interface OperationInput {
  /** The path's parameters, by the names `{…}` of the path. */
  readonly path?: ObjectSchema;
  /** The query string. */
  readonly query?: ObjectSchema;
  /** The JSON body. */
  readonly body?: z.core.$ZodType;
}

/** A JSON answer. */
export interface JsonOutput {
  readonly kind: "json";
  readonly status: 200 | 201;
  readonly description: string;
  /** Its schema; absent for a document of its own kind (the OpenAPI document). */
  readonly body?: z.core.$ZodType;
  /** `Cache-Control: no-store`: the answer holds a secret shown once (a token, a link). */
  readonly noStore?: true;
  /** When there is nothing to answer (the handler answers undefined): an empty answer. */
  readonly empty?: { readonly status: 204; readonly description: string };
  /**
   * The same answer as a Server-Sent Events stream of `component` frames for a client that asks
   * for `text/event-stream` (over HTTP only).
   */
  readonly stream?: {
    readonly component: string;
    readonly events: readonly string[];
    readonly empty: string;
  };
}

/** A text answer of another media type: a published JSON Schema, an HTML page. */
export interface TextOutput {
  readonly kind: "text";
  readonly status: 200;
  readonly description: string;
  readonly mediaType: string;
  /** The JSON Schema of the text, when it has one. */
  readonly schema?: object;
}

/**
 * A page for a browser: HTML, with its errors as HTML pages too (401, 403, 404 and 409, or JSON
 * when Accept asks for JSON only). Its handler checks who may see it and answers the request
 * itself, over HTTP only.
 */
export interface PageOutput {
  readonly kind: "page";
  /** The success answers, as the OpenAPI document describes them. */
  readonly responses: Readonly<Record<number, object>>;
}

/** An operation's MCP tool: the agent's side of the contract for an MCP client. */
export interface McpTool {
  /** The tool's name, e.g. `complete_work_item`. */
  readonly tool: string;
  readonly title: string;
  /** What a model reads about the tool. */
  readonly description: string;
  /** Whether the tool changes nothing (`readOnlyHint`). */
  readonly readOnly: boolean;
  /** The tool's names of the operation's path parameters (`id` → `work_item_id`). */
  readonly arguments?: Readonly<Record<string, string>>;
}

/** One operation of the delivery service, as {@link defineOperation} takes it. */
export interface OperationDefinition {
  /** The OpenAPI `operationId`, e.g. `completeWorkItem`. */
  readonly id: string;
  readonly method: "GET" | "POST";
  /** The path with `{name}` parameters, as the OpenAPI document writes it. */
  readonly path: string;
  readonly audience: Audience;
  /** Whether a view link's `?view=` token is accepted too (read-only, its run only). */
  readonly viewLinks?: true;
  readonly summary: string;
  readonly description: string;
  readonly tag: OperationTag;
  readonly input?: OperationInput;
  /** What the request body is, when the document should say more than its schema. */
  readonly bodyDescription?: string;
  /** A browser form's fields (`application/x-www-form-urlencoded`, optional), for a page. */
  readonly form?: ObjectSchema;
  /** Headers the operation reads itself (documented as they are). */
  readonly headers?: readonly HeaderParameter[];
  /**
   * Whether the request's W3C trace context (`traceparent`, `tracestate`) matters to it: its
   * spans continue the caller's trace, and a new run keeps it for its work items.
   */
  readonly traceContext?: true;
  /**
   * `Idempotency-Key` semantics: the same key with the same request answers the first answer
   * again; with another request, `IDEMPOTENCY_KEY_REUSED`.
   */
  readonly idempotent?: true;
  readonly output: JsonOutput | TextOutput | PageOutput;
  /** The codes it answers with besides those of its audience (see `audienceErrors`). */
  readonly errors?: readonly OperationErrorCode[];
  /** The typed client's method for it (and for its stream, when it has one). */
  readonly client?: { readonly method: string; readonly streamMethod?: string };
  /** Its MCP tool: operations an agent calls. */
  readonly mcp?: McpTool;
}

/**
 * One operation of the delivery service, defined once: the server derives its route, its MCP
 * tool, its span and the application of A2A outcomes from it, and the OpenAPI document its
 * entry. The definition is returned as written (with its literal types), for the registry.
 *
 * @example
 * ```ts source="../examples/define-operation.ts#defineOperation"
 * export const getRunStatus = defineOperation({
 *   id: "getRunStatus",
 *   method: "GET",
 *   path: "/v1/runs/{run_id}/status",
 *   audience: "admin or agent",
 *   summary: "A run's status",
 *   description: "`active`, `blocked` while a dead letter waits for a requeue, or `completed`.",
 *   tag: "runs",
 *   input: { path: z.strictObject({ run_id: runIdParameter }) },
 *   output: {
 *     kind: "json",
 *     status: 200,
 *     body: z.strictObject({ status: runView.shape.status }),
 *     description: "Its status",
 *   },
 *   errors: ["RUN_NOT_FOUND"],
 *   client: { method: "getRunStatus" },
 * });
 * ```
 */
export function defineOperation<const Definition extends OperationDefinition>(
  definition: Definition,
): Definition {
  return definition;
}
