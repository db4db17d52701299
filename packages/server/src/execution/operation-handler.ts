// The server's half of an operation: what it does with a request its contract definition has
// checked (its transition), typed from that definition, and what the span around it records.
import type { Audience, OperationDefinition } from "@task-context/contract";
import type { DeliverySpan } from "@task-context/core/tracing";
import type { Context } from "hono";
import type * as z from "zod";
import type { AgentIdentity, IdempotencyKey } from "../delivery/delivery-store.ts";
import type { AppEnv } from "../http/app-env.ts";
import type { Caller } from "../http/auth.ts";
import type { AgentServices, ServiceContext } from "./service-context.ts";

/** An agent acting in its run. */
export type AgentCaller = { role: "agent"; runId: string; agent: AgentIdentity };

/**
 * The caller an operation of `audience` is given, checked once by the executor: none for a
 * public operation, and none yet for a page, which checks its caller itself (admin or view link).
 */
export type CallerOf<A extends Audience> = A extends "admin"
  ? Extract<Caller, { role: "admin" }>
  : A extends "agent"
    ? AgentCaller
    : A extends "public" | "admin or view link"
      ? undefined
      : Caller;

type Part<D, Name extends "path" | "query" | "body"> = D extends {
  input: { [K in Name]: infer Schema extends z.core.$ZodType };
}
  ? z.output<Schema>
  : undefined;

/** What a handler is given: each part of the request, checked against its definition. */
export interface InputOf<D extends OperationDefinition> {
  path: Part<D, "path">;
  query: Part<D, "query">;
  body: Part<D, "body">;
  /** The request's idempotency key with the hash of what it came with (idempotent operations). */
  idempotency: IdempotencyKey | undefined;
}

/**
 * What a handler answers: its JSON body (undefined for an empty answer; a `Response` for a
 * stream), the text of a text answer, or a page's whole `Response`.
 */
export type OutputOf<D extends OperationDefinition> = D["output"] extends {
  kind: "json";
  body: infer Schema extends z.core.$ZodType;
}
  ?
      | z.input<Schema>
      | (D["output"] extends { empty: object } ? undefined : never)
      | (D["output"] extends { stream: object } ? Response : never)
  : D["output"] extends { kind: "json" }
    ? unknown
    : D["output"] extends { kind: "text" }
      ? string
      : Response;

/** Where a handler runs. */
export interface HandlerContext<D extends OperationDefinition> {
  /** Who called, checked against the operation's audience (and the path's run). */
  caller: CallerOf<D["audience"]>;
  /** What the handler may use: an agent's operation only what every entry has. */
  service: D["audience"] extends "agent" ? AgentServices : ServiceContext;
  /** Aborts when the caller goes away or the service stops: a wait answers at once. */
  signal: AbortSignal;
  /** The HTTP request, when the operation is called over HTTP (streams and pages need it). */
  http: Context<AppEnv> | undefined;
}

/**
 * The span around an agent's operation on a work item: its name and what it records of the
 * handler's `Result` (before the edge makes it the wire answer).
 */
export interface WorkItemSpan<D extends OperationDefinition, Result = OutputOf<D>> {
  /** The span's name, e.g. `complete work_item`. */
  name: string;
  /** The work item it acts on, when the request names one. */
  workItemId: (input: InputOf<D>) => string | undefined;
  /** Records what the result says (the attempt, the item's status, the receipt). */
  describe(span: DeliverySpan, result: NoInfer<Result>, input: InputOf<D>): void;
}

/**
 * The server's half of an operation, as {@link defineHandler} takes it. Its transition answers
 * `Result`: the wire answer itself, or — with `answer` — something typed the span reads (a
 * completion's receipt) that `answer` turns into the wire answer.
 */
export interface OperationHandler<D extends OperationDefinition, Result = OutputOf<D>> {
  /** The transition: the operation's result for a checked request. */
  handle: (input: InputOf<D>, context: HandlerContext<D>) => Promise<Result>;
  /**
   * The edge: the wire answer of the transition's `result`, the same for every entry (HTTP,
   * `/mcp`, A2A). Absent when the result is the wire answer.
   */
  answer?(result: NoInfer<Result>, input: InputOf<D>, context: HandlerContext<D>): OutputOf<D>;
  /** Its span (agents' operations on work items). */
  span?: WorkItemSpan<D, Result>;
  /** The text blocks a model reads of the answer of its MCP tool (default: its JSON). */
  toolText?: (answer: OutputOf<D>) => string[];
  /**
   * Idempotent operations: the name their keys are hashed with (`complete`, `fail`), so that a
   * key sent over HTTP, MCP or A2A means the same, and keys stored before stay valid.
   */
  idempotencyScope?: string;
}

/** A handler whose result is not its wire answer must say how it becomes one (`answer`). */
type AnswerOf<D extends OperationDefinition, Result> = [Result] extends [OutputOf<D>]
  ? unknown
  : { answer: NonNullable<OperationHandler<D, Result>["answer"]> };

/**
 * The handler of `operation`, typed from its definition: its input is what the definition's
 * schemas give, its answer what its output declares (`handle: async ({ path }, { service }) =>
 * service.store.getRun(path.run_id)`), or — with `answer` — what that makes of its result.
 */
export function defineHandler<D extends OperationDefinition, Result = OutputOf<D>>(
  _operation: D,
  // The result is the transition's: inferred from `handle` alone.
  handler: OperationHandler<D, Result> & AnswerOf<D, NoInfer<Result>>,
): OperationHandler<D, Result> {
  return handler;
}
