// The one way an operation runs, whichever entry called it — an HTTP route, an MCP tool, the A2A
// dispatcher applying an agent's outcome: the caller admitted by the operation's audience, the
// input held to the service's limits and checked against the contract's schemas, the handler run
// inside its span, its result made the wire answer. Every entry therefore refuses the same
// requests with the same answers, and answers the others alike.
import { type OperationId, type Operations, operations } from "@task-context/contract";
import type { Caller } from "../http/auth.ts";
import { handlers } from "../operations.ts";
import { admit } from "./admit.ts";
import { checkBody, checkIdempotencyKey, checkPart } from "./check-input.ts";
import type { HandlerContext, InputOf, OperationHandler, OutputOf } from "./operation-handler.ts";
import type { AgentServices, ServiceContext } from "./service-context.ts";
import { traceWorkItem } from "./work-item-span.ts";

/** A request for an operation, as its entry received it (nothing checked yet). */
export interface OperationRequest {
  /** Who sent it (authenticated by the entry); none for a public operation or a page. */
  caller: Caller | undefined;
  /** The path's parameters, by name; an agent's `run_id` is its own run. */
  path?: Readonly<Record<string, string>>;
  /** The query string's parameters (a repeated one as an array). */
  query?: Readonly<Record<string, string | string[]>>;
  /** The body, as parsed JSON. */
  body?: unknown;
  /** The body's size in bytes as it came; default: the UTF-8 length of its JSON. */
  bodyBytes?: number;
  /** The idempotency key it came with (`Idempotency-Key`, an MCP tool's `idempotency_key`). */
  idempotencyKey?: string | undefined;
}

/** Where an operation runs. */
export interface ExecutionContext<Services extends AgentServices = ServiceContext> {
  service: Services;
  /** Aborts when the caller goes away or the service stops (read only by a handler that waits). */
  readonly signal: AbortSignal;
  /** The HTTP request, over HTTP. */
  http?: HandlerContext<Operations[OperationId]>["http"];
}

/**
 * Runs the operation `id` for `request`: admits its caller, holds its body to the service's
 * limit and to well-formed text, checks each part against the contract's schemas and its
 * idempotency key, and runs the handler (in its span). Refusals are `DeliveryError`s.
 */
export async function executeOperation<Id extends OperationId>(
  id: Id,
  request: OperationRequest,
  context: ExecutionContext<
    Operations[Id]["audience"] extends "agent" ? AgentServices : ServiceContext
  >,
): Promise<OutputOf<Operations[Id]>> {
  const operation: Operations[OperationId] = operations[id];
  const handler = handlers[id] as unknown as OperationHandler<Operations[OperationId], unknown>;
  const caller = admit(operation, request.caller, request.path?.run_id);
  const input = "input" in operation ? operation.input : undefined;
  const path =
    input !== undefined && "path" in input
      ? checkPart(input.path, request.path ?? {}, "path")
      : undefined;
  const query =
    input !== undefined && "query" in input
      ? checkPart(input.query, request.query ?? {}, "query string")
      : undefined;
  let body: unknown;
  if (input !== undefined && "body" in input) {
    checkBody(request.body, request.bodyBytes, context.service.bodyBytes);
    body = checkPart(input.body, request.body, "request body");
  }
  const idempotency =
    handler.idempotencyScope === undefined
      ? undefined
      : await checkIdempotencyKey(request.idempotencyKey, handler.idempotencyScope, path, body);
  const checked = { path, query, body, idempotency } as InputOf<Operations[OperationId]>;
  const handlerContext = {
    caller,
    service: context.service,
    // Asked for only by a handler that waits (an entry may make it on demand).
    get signal() {
      return context.signal;
    },
    http: context.http,
  } as HandlerContext<Operations[OperationId]>;
  const run = () => handler.handle(checked, handlerContext);
  const { span } = handler;
  const result =
    span === undefined || caller === undefined || caller.role !== "agent"
      ? await run()
      : await traceWorkItem(
          span.name,
          caller.runId,
          caller.agent,
          span.workItemId(checked),
          run,
          (recorded, answer) => span.describe(recorded, answer, checked),
        );
  // The edge: what the transition answered, as the wire says it (once, for every entry).
  const answer =
    handler.answer === undefined ? result : handler.answer(result, checked, handlerContext);
  return answer as OutputOf<Operations[Id]>;
}
