import { type FollowEventsOptions, followEvents } from "./follow-events.ts";
import { OperationMethods } from "./generated/methods.ts";
import type {
  ClaimView,
  CollaborationEvent,
  CompleteBody,
  CompletionView,
  EventPage,
  FailBody,
  FailureView,
  OffersView,
  RunList,
  RunView,
} from "./generated/schemas.ts";
import type { OpenApiDocument } from "./openapi-document.ts";
import {
  type AnswerOf,
  type CallOptions,
  type OperationCaller,
  type OperationId,
  type OperationRequest,
  operationCall,
} from "./operation-call.ts";
import { anySignal, createSend, readJson, type Send, type TransportOptions } from "./transport.ts";

/** `GET /v1/inbox/poll` and `POST /v1/inbox/claim-next`: how long to wait for an offer. */
export interface WaitOptions extends CallOptions {
  /** Hold the request up to this many seconds (0 to 30) until an offer appears. @default 0 */
  wait?: number;
}

/** `POST /v1/inbox/claim-next`. */
export interface ClaimNextOptions extends WaitOptions {
  /**
   * Claim up to this many offers at once (1 to 100), each with its own lease, listed in the
   * answer's `claims`. Unset: one, and no `claims`.
   */
  maxItems?: number;
}

/** `GET /v1/inbox/poll`. */
export interface PollOptions extends WaitOptions {
  /** At most this many offers (1 to 50). @default 10 */
  limit?: number;
}

/** `GET /v1/runs/{run_id}/events` as JSON pages. */
export interface ListEventsOptions extends CallOptions {
  /** Only events with a larger seq. @default 0 */
  after?: number;
  /** At most this many events (1 to 1000). @default 100 */
  limit?: number;
}

/** `GET /v1/runs`: which runs, from where. */
export interface ListRunsOptions extends CallOptions {
  /**
   * Only runs with one of these statuses, e.g. `["active", "blocked"]`. @default every run
   */
  status?: readonly RunView["status"][];
  /** At most this many runs (1 to 200). @default 50 */
  limit?: number;
  /** The previous page's `next_cursor`: the page after it. @default the newest runs */
  cursor?: string;
}

/** Completions and failures. */
export interface SettleOptions extends CallOptions {
  /**
   * The `Idempotency-Key` (1 to 255 visible ASCII characters): the same key with the same body
   * answers the first answer again. Default: a random key, made once per call and sent with each
   * of its retries. Pass your own to retry across calls or restarts, e.g. `${item.id}-${attempt}`.
   */
  idempotencyKey?: string;
}

/** What {@link createServiceClient} takes: the service's address, a token, and how to send. */
export type ServiceClientOptions = TransportOptions;

/** A random `Idempotency-Key`: 32 hex digits (getRandomValues works where randomUUID does not). */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Calls an operation with `send` and reads its JSON answer. */
function jsonCaller(send: Send): OperationCaller {
  return <Id extends OperationId>(
    id: Id,
    request: OperationRequest<Id>,
    options: CallOptions | undefined,
  ) => send(operationCall(id, { ...request, signal: options?.signal }), readJson<AnswerOf<Id>>);
}

/**
 * A typed client of the delivery service's HTTP contract. Each method calls one operation of the
 * generated table (`src/generated/operations.ts`: its method and path template) and is typed by
 * the generated types (its body and its answer): it sends the contract's body and answers the
 * contract's JSON. A refusal is thrown as a `ServiceError`. The plain methods are generated
 * (`src/generated/methods.ts`, which this class extends); those below are written by hand, each
 * for the reason `handWrittenMethods` (scripts/method-generation.ts) gives.
 */
class ServiceClient extends OperationMethods {
  readonly #send: Send;
  readonly #json: OperationCaller;
  readonly #signal: AbortSignal | undefined;

  constructor(options: ServiceClientOptions) {
    const send = createSend(options);
    const json = jsonCaller(send);
    super(json);
    this.#send = send;
    this.#json = json;
    this.#signal = options.signal;
  }

  /** `GET /v1/openapi.json`: the contract as an OpenAPI 3.1 document. Public. */
  getOpenApiDocument(options?: CallOptions): Promise<OpenApiDocument> {
    const call = operationCall("openApi", { signal: options?.signal });
    return this.#send(call, readJson<OpenApiDocument>);
  }

  /**
   * `GET /v1/runs`: a page of the service's runs, newest first; `next_cursor` is the next page's
   * `cursor` (null on the last page). Admin.
   */
  listRuns(options: ListRunsOptions = {}): Promise<RunList> {
    const { status, limit, cursor } = options;
    const query = { status: status?.join(","), limit, cursor };
    return this.#json("listRuns", { query }, options);
  }

  /**
   * `GET /v1/runs/{run_id}/events` as JSON: one page of events after `after`; `next_after` is
   * the next page's `after`. Admin or an agent of the run.
   */
  listEvents(runId: string, options: ListEventsOptions = {}): Promise<EventPage> {
    const { after, limit } = options;
    return this.#json("listEvents", { path: { run_id: runId }, query: { after, limit } }, options);
  }

  /**
   * `GET /v1/runs/{run_id}/events` as Server-Sent Events: every event of the run after
   * `options.after`, then each new one as it happens, until `run.completed` or `run.canceled`. A connection that
   * ends or breaks is resumed with `Last-Event-ID`: no event is missed or repeated. Stop early
   * with `break` or `options.signal`. Admin or an agent of the run.
   */
  followEvents(
    runId: string,
    options: FollowEventsOptions = {},
  ): AsyncGenerator<CollaborationEvent, void, undefined> {
    // The client's signal too: it ends the stream while it waits to reconnect.
    const signal = anySignal([this.#signal, options.signal]);
    const { path } = operationCall("listEvents", { path: { run_id: runId } });
    return followEvents(this.#send, path, {
      ...options,
      ...(signal === undefined ? {} : { signal }),
    });
  }

  /** `GET /v1/inbox/poll`: the items the agent may claim now, oldest offer first. Agent. */
  poll(options: PollOptions = {}): Promise<OffersView> {
    const { wait, limit } = options;
    return this.#json("pollInbox", { query: { wait, limit } }, options);
  }

  /**
   * `POST /v1/inbox/claim-next`: claims the oldest item on offer (a new attempt with a lease), or
   * up to `maxItems` of them (in `claims`); undefined when nothing was on offer before `wait`
   * ended. Agent.
   */
  claimNext(options: ClaimNextOptions = {}): Promise<ClaimView | undefined> {
    const call = operationCall("claimNext", {
      query: { wait: options.wait, max_items: options.maxItems },
      signal: options.signal,
    });
    return this.#send(call, (response) =>
      response.status === 204 ? Promise.resolve(undefined) : readJson<ClaimView>(response),
    );
  }

  /**
   * `POST /v1/work-items/{id}/complete`: completes the item with an `artifact` (task) or a
   * `review` (review). Sent with an `Idempotency-Key`, and sent again with it when no answer
   * came: a completion the service applied but whose answer was lost gets that answer, not a
   * `409`. Agent.
   */
  complete(
    workItemId: string,
    body: CompleteBody,
    options: SettleOptions = {},
  ): Promise<CompletionView> {
    return this.#settle("completeWorkItem", workItemId, body, options);
  }

  /**
   * `POST /v1/work-items/{id}/fail`: gives the attempt up; the item goes back on offer, or to
   * the dead letters after its last attempt. Idempotent as {@link ServiceClient.complete} is.
   * Agent.
   */
  fail(workItemId: string, body: FailBody, options: SettleOptions = {}): Promise<FailureView> {
    return this.#settle("failWorkItem", workItemId, body, options);
  }

  /** A completion or a failure: sent with an `Idempotency-Key`, and sent again when no answer came. */
  #settle<Id extends "completeWorkItem" | "failWorkItem">(
    id: Id,
    workItemId: string,
    body: OperationRequest<Id>["body"],
    options: SettleOptions,
  ): Promise<AnswerOf<Id>> {
    const headers = { "Idempotency-Key": options.idempotencyKey ?? newIdempotencyKey() };
    const request = { path: { id: workItemId }, body, headers, resend: true };
    return this.#json(id, request as OperationRequest<Id>, options);
  }
}

export type { ServiceClient };

/**
 * A client of the delivery service at `url`, acting with `token` (the admin token, an agent
 * token, or none for the public endpoints). It needs only `fetch`: it runs on Node, Deno, Bun,
 * Cloudflare Workers and in browsers. With an OpenTelemetry SDK registered, each request carries
 * the active span as `traceparent` (and `tracestate`): the service's spans continue it.
 *
 * @example
 * ```ts source="../../server/examples/typed-client.ts#agent"
 * const agent = createServiceClient({ url: server.url, token });
 * const claim = await agent.claimNext({ wait: 30 }); // undefined when nothing came within 30 s
 * if (claim === undefined) throw new Error("Nothing was offered within 30 s.");
 * const { work_item: item, lease } = claim;
 * // Sent with an Idempotency-Key, and sent again with the same key when no answer came.
 * const done = await agent.complete(item.id, {
 *   attempt: lease.attempt,
 *   artifact: { media_type: "text/markdown", content: `# ${item.goal}` },
 * });
 * console.log(done.status); // completed
 * ```
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  return new ServiceClient(options);
}
