// One lease attempt of one work item, carried out by an A2A agent as its own A2A task: the
// message sent, the task followed (its stream, or tasks/get), and its outcome applied to the
// store as the agent's heartbeat, completion or failure — the operations a polling agent calls.
// Every way the attempt ends is recorded with its reason: what the agent said, the HTTP status or
// JSON-RPC error it answered, that nothing answered, that it was silent or stuck past its lease,
// that its result broke a limit, or that the store could not take it.
import type { Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { RequestOptions } from "@a2a-js/sdk/client";
import type { ClaimView } from "@task-context/contract";
import type { Artifact, WorkItem } from "@task-context/protocols";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { A2aAgentCard, AgentIdentity, DeliveryStore } from "../delivery/delivery-store.ts";
import { type A2a03Answer, a2a03AnswerProblem } from "./a2a03-answer.ts";
import { isA2a03 } from "./agent-card.ts";
import { type AgentConnection, connectAgent } from "./agent-client.ts";
import type { AgentOperations } from "./agent-operations.ts";
import {
  A2A03_METHODS,
  type AgentCall,
  agentProblem,
  errorMessages,
  jsonRpcError,
  type NamedCall,
  quoted,
} from "./agent-problem.ts";
import { AttemptLease, STUCK_LEASES } from "./attempt-lease.ts";
import { type AgentCredential, credentialSecrets, redactCredentials } from "./card-credentials.ts";
import type { OAuthTokens } from "./oauth-tokens.ts";
import type { PushPayload, PushReceiver } from "./push-receiver.ts";
import { pushPath } from "./push-route.ts";
import { hashPushToken, newPushToken } from "./push-token.ts";
import {
  type FinalOutcome,
  messageOutcome,
  refusedResult,
  stateName,
  taskOutcome,
} from "./task-outcome.ts";
import { sendRequest, workItemMessage } from "./work-item-message.ts";

/** How an attempt ended, as the dispatcher counts it. */
export type AttemptResult =
  /** Completed: the item's artifact or review is stored. */
  | "completed"
  /** Failed with a reason: the item is on offer again, or a dead letter. */
  | "failed"
  /** The store refused it as stale: another attempt holds the item, or it is done. */
  | "stale"
  /**
   * Handed over to push notifications (`push.handOff`): the task goes on, and its updates are
   * applied as they are pushed (or read by the safety poll), not by this attempt.
   */
  | "pushing"
  /**
   * Nothing could be recorded: the dispatcher stopped, or the store failed even to take the
   * attempt's failure (`onError` was told); the lease expires in the store.
   */
  | "abandoned";

/** What one attempt needs. */
export interface AttemptInput {
  /** The store: the reviewed artifact is read from it. */
  store: DeliveryStore;
  /** The agent's operations: its heartbeats, completion or failure are applied through them. */
  operations: AgentOperations;
  runId: string;
  agent: AgentIdentity;
  /** The agent's card as stored: the attempt's client is made from it. */
  card: A2aAgentCard;
  claim: ClaimView;
  /** The run's lease length: heartbeats renew it; an agent silent until near its end is given up. */
  leaseMs: number;
  /** Follow the task's stream (the card offers streaming), or poll tasks/get. */
  streaming: boolean;
  /** How often tasks/get is sent (real time); the clock is looked at as often, 1 s at most. */
  pollIntervalMs: number;
  /** The service's own origin, for earlier artifacts' URIs. */
  serviceUrl: string | undefined;
  /** The service's request body limit, in bytes: an answer is read up to 4 times it. */
  bodyBytes: number;
  /** Aborts when the dispatcher stops. */
  signal: AbortSignal;
  /**
   * Aborts when the run is canceled: the attempt is given up at once (nothing it would answer
   * is accepted any more) and the agent asked to cancel its task.
   */
  runCanceled?: AbortSignal;
  /** Counts each heartbeat sent. */
  onHeartbeat?: () => void;
  /** Told of a store error (the attempt records it as its failure when the store lets it). */
  onError?: (error: unknown) => void;
  /** The store's clock (ms since the epoch): leases, silence and stuck tasks are measured with it. */
  clock: () => number;
  /** The `fetch` A2A requests go through (default: the global one). */
  fetch?: typeof fetch;
  /** The agent's credentials, sent with each request, and where OAuth 2 tokens come from. */
  authentication?: { credentials: readonly AgentCredential[]; tokens: OAuthTokens };
  /**
   * Push notifications, used when the card offers them (`capabilities.pushNotifications`) to an
   * A2A 1.x interface: the webhook is under `publicUrl`, and `receiver` hands this attempt its
   * notifications. The task is then not polled, but for a safety poll (see {@link safetyPollMs}).
   */
  push?:
    | {
        receiver: PushReceiver;
        publicUrl: string;
        /**
         * Hand the task over once the agent accepted the message, instead of following it here:
         * where nothing may wait (a Durable Object's alarm), the notifications are applied as
         * they come, and the safety poll is the receiver's (`PushReceiver.safetyPoll`).
         */
        handOff?: boolean;
      }
    | undefined;
}

/**
 * While pushes are expected, the task is polled (GetTask) only when nothing came for half the
 * lease: a lost notification delays an outcome by at most that, and a `working` the poll reads
 * renews the lease before the attempt would be given up as silent.
 */
export function safetyPollMs(leaseMs: number): number {
  return Math.max(1, Math.floor(leaseMs / 2));
}

/** An answer of an agent's is read up to this many times the request body limit. */
const ANSWER_BODIES = 4;

/** The A2A task of one attempt as the service knows it: what the agent said so far. */
class TaskSnapshot {
  task: Task | undefined;

  /** Applies one stream event; false when it is about another task (ignored). */
  apply(event: Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent): boolean {
    if ("id" in event) {
      this.task = event;
      return true;
    }
    if (this.task === undefined || event.taskId !== this.task.id) return false;
    if ("status" in event) this.task.status = event.status;
    else if (event.artifact !== undefined) this.#artifact(event);
    return true;
  }

  /** Everything the task says, as one string: what changed between two polls. */
  said(): string {
    const task = this.task as Task;
    const message = task.status?.message?.parts.map((part) => JSON.stringify(part.content));
    const parts = task.artifacts.map((artifact) => artifact.parts.length);
    return JSON.stringify([task.status?.state, task.status?.timestamp, message, parts]);
  }

  #artifact({ artifact, append }: TaskArtifactUpdateEvent): void {
    const task = this.task as Task;
    if (artifact === undefined) return;
    const index = task.artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
    const known = task.artifacts[index];
    if (known === undefined) task.artifacts.push(artifact);
    else
      task.artifacts[index] = append
        ? { ...known, parts: [...known.parts, ...artifact.parts] }
        : artifact;
  }
}

/** The run's trace context as the headers of each A2A request. */
function traceHeaders(trace: WorkItem["trace_context"]): Record<string, string> {
  if (trace === undefined) return {};
  const { traceparent, tracestate } = trace;
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

/** Resolves after `ms` of real time, or at once when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * Carries out one attempt: sends its message (the reviewed artifact fenced into it for a review),
 * follows the task until it completes, fails or needs input, heartbeating on `working`, and
 * applies the outcome with the message id as the idempotency key. Anything said after the lease
 * passed to another attempt is refused by the store (`stale`): the fencing A2A lacks.
 */
export function runAttempt(input: AttemptInput): Promise<AttemptResult> {
  return new Attempt(input).run();
}

/** One attempt's state while it runs: see {@link runAttempt}. */
class Attempt {
  readonly #input: AttemptInput;
  readonly #item: WorkItem;
  readonly #attempt: number;
  readonly #lease: AttemptLease;
  readonly #answerBytes: number;
  readonly #snapshot = new TaskSnapshot();
  /** Aborts when the agent was silent until the lease's margin. */
  readonly #silence = new AbortController();
  /** Aborts when the attempt is over (the silence watch ends). */
  readonly #over = new AbortController();
  /**
   * Aborts every request of the attempt: the dispatcher stops, the agent was silent, or the run
   * was canceled.
   */
  readonly #requests: AbortSignal;
  #message: Message | undefined;
  #connection: AgentConnection | undefined;
  /** Set when the service gave the task up: it asks the agent to cancel it. */
  #cancel = false;
  /** The agent speaks A2A 0.3 (through the SDK's 0.3 transports). */
  readonly #a2a03: boolean;
  /** Notifications pushed and not yet applied, and the wake-up of the loop that applies them. */
  readonly #pushed: PushPayload[] = [];
  #wake: (() => void) | undefined;
  /** The task was handed over to push notifications: its row stays open. */
  #handedOff = false;
  /** When the agent last said something (a push, a poll's answer): the safety poll follows it. */
  #lastNews = 0;

  constructor(input: AttemptInput) {
    this.#input = input;
    this.#item = input.claim.work_item;
    this.#attempt = input.claim.lease.attempt;
    this.#lease = new AttemptLease(input.clock, input.leaseMs, input.claim.lease.expires_at);
    this.#answerBytes = ANSWER_BODIES * input.bodyBytes;
    this.#requests = AbortSignal.any([
      input.signal,
      this.#silence.signal,
      ...(input.runCanceled === undefined ? [] : [input.runCanceled]),
    ]);
    this.#a2a03 = isA2a03(input.card.supportedInterfaces[0]?.protocolVersion);
  }

  async run(): Promise<AttemptResult> {
    const input = this.#input;
    const reviewed = await this.#reviewed();
    this.#message = workItemMessage(input.claim, {
      serviceUrl: input.serviceUrl,
      reviewed,
    });
    try {
      this.#connection = await connectAgent(
        input.card,
        this.#answerBytes,
        input.fetch,
        input.authentication,
      );
    } catch (error) {
      return this.#settle({
        kind: "fail",
        reason: `The service could not make a client of the A2A agent from its card: ${quoted(errorMessages(error))}.`,
      });
    }
    void this.#watchSilence();
    const push =
      this.#a2a03 || input.card.capabilities?.pushNotifications !== true ? undefined : input.push;
    const unfollow = push?.receiver.follow(input.runId, this.#item.id, this.#attempt, (payload) => {
      this.#pushed.push(payload);
      this.#wake?.();
    });
    try {
      if (push !== undefined) {
        const started = await this.#send(push);
        if (started !== undefined) return started;
        if (push.handOff === true) {
          this.#handedOff = true;
          return "pushing";
        }
        return await this.#followPushes();
      }
      const started = input.streaming ? await this.#stream() : await this.#send();
      return started ?? (await this.#poll());
    } finally {
      this.#over.abort();
      unfollow?.();
      // Notifications that come from now on are late: ignored, and counted. Not when the service
      // stops: the task goes on, and its notifications are applied by the service that follows.
      if (!input.signal.aborted && !this.#handedOff) {
        await push?.receiver.tasks
          .end(input.runId, this.#item.id, this.#attempt, input.clock())
          .catch((error: unknown) => input.onError?.(error));
      }
      this.#cancelTask();
    }
  }

  /** A review item's reviewed artifact, fenced into the message; a store error is told, not hidden. */
  async #reviewed(): Promise<Artifact | undefined> {
    if (this.#item.kind !== "review") return undefined;
    const { store, runId, onError } = this.#input;
    try {
      return await store.artifact(runId, this.#item.review_context.target_artifact_id);
    } catch (error) {
      // The message still links it (a url part): the agent can fetch it.
      onError?.(error);
      return undefined;
    }
  }

  /** Aborts {@link #silence} once the agent has been silent until the lease's margin. */
  async #watchSilence(): Promise<void> {
    const { clock, pollIntervalMs } = this.#input;
    const tick = Math.min(pollIntervalMs, 1000);
    while (!this.#over.signal.aborted) {
      if (this.#lease.silent()) {
        this.#silence.abort();
        return;
      }
      await pause(Math.min(Math.max(1, this.#lease.giveUpAt() - clock()), tick), this.#over.signal);
    }
  }

  #options(): RequestOptions {
    return {
      signal: this.#requests,
      serviceParameters: traceHeaders(this.#item.trace_context),
    };
  }

  /** Sends the message and follows the task's stream; undefined: poll the task from now on. */
  async #stream(): Promise<AttemptResult | undefined> {
    const { client } = this.#connection as AgentConnection;
    const request = sendRequest(this.#message as Message, false);
    try {
      for await (const event of client.sendMessageStream(request, this.#options())) {
        const payload = event.payload;
        if (payload === undefined) continue;
        const unreadable = this.#unreadable("SendStreamingMessage", payload.value);
        if (unreadable !== undefined) return await unreadable;
        if (payload.$case === "message") {
          return await this.#settle(
            messageOutcome(payload.value as Message, this.#item, this.#attempt),
          );
        }
        if (!this.#snapshot.apply(payload.value)) continue;
        const result = await this.#decide(true);
        if (result !== undefined) return result;
      }
    } catch (error) {
      const exchange = this.#connection?.exchange();
      const answered = exchange?.tooLarge === true || jsonRpcError(error) !== undefined;
      // The stream broke after the task existed (the agent went away mid-stream, or its stream
      // was not one): the task is polled from then on. An error it answered ends the attempt.
      if (this.#snapshot.task === undefined || answered || this.#requests.aborted) {
        return this.#callFailed("SendStreamingMessage", error);
      }
    }
    if (this.#snapshot.task === undefined) {
      return this.#settle({
        kind: "fail",
        reason: "The A2A agent's stream ended before it created a task.",
      });
    }
    return undefined;
  }

  /**
   * Sends the message for a polled task, or one whose updates are pushed (with `push`: the
   * attempt's webhook and a new token, its hash stored first); undefined: follow the task.
   */
  async #send(push?: AttemptInput["push"]): Promise<AttemptResult | undefined> {
    const { client } = this.#connection as AgentConnection;
    const { runId, clock, agent } = this.#input;
    let answer: Task | Message;
    try {
      let webhook: { url: string; token: string } | undefined;
      if (push !== undefined) {
        const token = newPushToken();
        await push.receiver.tasks.open({
          run_id: runId,
          work_item_id: this.#item.id,
          attempt: this.#attempt,
          agent_id: agent.agent_id,
          kind: this.#item.kind,
          context_sha256: this.#item.context_sha256,
          token_hash: await hashPushToken(token),
          created_at: clock(),
        });
        const url = new URL(pushPath(runId, this.#item.id, this.#attempt), push.publicUrl).href;
        webhook = { url, token };
      }
      const request = sendRequest(this.#message as Message, true, webhook);
      answer = (await client.sendMessage(request, this.#options())) as Task | Message;
    } catch (error) {
      return this.#callFailed("SendMessage", error);
    }
    const unreadable = this.#unreadable("SendMessage", answer);
    if (unreadable !== undefined) return unreadable;
    if (!("id" in answer)) {
      return this.#settle(messageOutcome(answer, this.#item, this.#attempt));
    }
    await push?.receiver.tasks.setTask(runId, this.#item.id, this.#attempt, answer.id);
    this.#snapshot.apply(answer);
    this.#lastNews = clock();
    return this.#decide(false);
  }

  /**
   * Applies the task's pushed notifications as streamed updates until it settles: a final state
   * is read back with GetTask (the whole task, whatever notification was lost); the task is
   * polled only when nothing came for {@link safetyPollMs}.
   */
  async #followPushes(): Promise<AttemptResult> {
    const { clock, leaseMs } = this.#input;
    const id = (this.#snapshot.task as Task).id;
    for (;;) {
      const payload = await this.#nextPush(this.#lastNews + safetyPollMs(leaseMs));
      if (this.#requests.aborted) return this.#callFailed("GetTask", this.#requests.reason);
      let result: AttemptResult | undefined;
      if (payload === undefined) {
        result = await this.#pollOnce(id);
      } else if (payload.$case === "message") {
        return this.#settle(messageOutcome(payload.value as Message, this.#item, this.#attempt));
      } else {
        this.#lastNews = clock();
        this.#snapshot.apply(payload.value);
        const pending = taskOutcome(this.#snapshot.task as Task, this.#item, this.#attempt);
        // A final state: its artifacts are read from the task itself, not pieced from pushes.
        result = pending.kind === "pending" ? await this.#decide(true) : await this.#pollOnce(id);
      }
      if (result !== undefined) return result;
    }
  }

  /** The next pushed notification; undefined at `pollAt` (the service's clock) or on abort. */
  async #nextPush(pollAt: number): Promise<PushPayload | undefined> {
    const { clock, pollIntervalMs } = this.#input;
    const tick = Math.min(pollIntervalMs, 1000);
    for (;;) {
      const next = this.#pushed.shift();
      if (next !== undefined || this.#requests.aborted || clock() >= pollAt) return next;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        void pause(tick, this.#requests).then(resolve);
      });
      this.#wake = undefined;
    }
  }

  /** Polls the task with tasks/get until it settles, or the attempt is given up. */
  async #poll(): Promise<AttemptResult> {
    const id = (this.#snapshot.task as Task).id;
    for (;;) {
      await pause(this.#input.pollIntervalMs, this.#requests);
      const result = await this.#pollOnce(id);
      if (result !== undefined) return result;
    }
  }

  /** Polls task `id` once with tasks/get and decides on its answer; undefined: go on. */
  async #pollOnce(id: string): Promise<AttemptResult | undefined> {
    const { client } = this.#connection as AgentConnection;
    let task: Task;
    try {
      if (this.#requests.aborted) throw this.#requests.reason;
      task = await client.getTask({ tenant: "", id, historyLength: 0 }, this.#options());
    } catch (error) {
      return this.#callFailed("GetTask", error);
    }
    this.#lastNews = this.#input.clock();
    const unreadable = this.#unreadable("GetTask", task);
    if (unreadable !== undefined) return unreadable;
    if (task.id !== id) {
      return this.#settle({
        kind: "fail",
        reason: `The A2A agent answered GetTask for task ${quoted(id)} with another task, ${quoted(task.id)}.`,
      });
    }
    this.#snapshot.apply(task);
    return this.#decide(false);
  }

  /**
   * A call that failed: the dispatcher stopped (abandoned), the agent was silent until the
   * lease's margin (given up), or the call's own error (a failure saying what it answered).
   */
  #callFailed(operation: AgentCall, error: unknown): Promise<AttemptResult> {
    if (this.#input.signal.aborted) return Promise.resolve("abandoned");
    if (this.#input.runCanceled?.aborted === true) {
      // Nothing of a canceled run is accepted (409 RUN_CANCELED): only the task is canceled.
      this.#cancel = true;
      return Promise.resolve("stale");
    }
    // A 0.3 agent's operator knows the call by its 0.3 method name.
    const call = this.#a2a03 ? A2A03_METHODS[operation] : operation;
    if (this.#silence.signal.aborted) return this.#giveUp(this.#silenceReason(call));
    const { bodyBytes } = this.#input;
    const exchange = this.#connection?.exchange();
    return this.#settle({
      kind: "fail",
      reason: agentProblem(call, error, exchange, this.#answerBytes, bodyBytes),
    });
  }

  /**
   * A 0.3 agent's answer the service cannot read (see ./a2a03-answer.ts): the attempt fails
   * saying what it was, and the agent is asked to cancel the task. Undefined: read on.
   */
  #unreadable(operation: AgentCall, answer: A2a03Answer): Promise<AttemptResult> | undefined {
    if (!this.#a2a03) return undefined;
    const problem = a2a03AnswerProblem(answer);
    if (problem === undefined) return undefined;
    return this.#giveUp(`The A2A agent answered ${A2A03_METHODS[operation]} with ${problem}.`);
  }

  #silenceReason(call: NamedCall): string {
    const lease = `the attempt's lease (lease_ms ${this.#input.leaseMs}, renewed by each working update; given up ${this.#lease.marginMs} ms before its end)`;
    const task = this.#snapshot.task;
    if (task === undefined) return `The A2A agent did not answer ${call} within ${lease}.`;
    const state = stateName(task.status?.state ?? 0);
    return `The A2A agent did not answer within ${lease}: its task was last ${state}. The service gave the attempt up and asked the agent to cancel the task.`;
  }

  /** What the task's latest state means: a heartbeat, a stuck task, or its outcome. */
  async #decide(streamed: boolean): Promise<AttemptResult | undefined> {
    const task = this.#snapshot.task as Task;
    const outcome = taskOutcome(task, this.#item, this.#attempt);
    if (outcome.kind !== "pending") return this.#settle(outcome);
    const said = this.#snapshot.said();
    const verdict = this.#lease.observe({ said, working: outcome.working, streamed });
    if (verdict === "stuck") {
      return this.#giveUp(
        `The A2A task said working with nothing new (the same status, message and artifacts) for ${this.#lease.unchangedMs()} ms, ${STUCK_LEASES} times the run's lease_ms: the service gave the attempt up as stuck and asked the agent to cancel the task.`,
      );
    }
    return verdict === "beat" ? this.#beat() : undefined;
  }

  /** Renews the lease; `stale` when the store says the attempt lost it. */
  async #beat(): Promise<AttemptResult | undefined> {
    const { operations, runId, agent } = this.#input;
    try {
      const extended = await operations.heartbeat(runId, agent, this.#item.id, this.#attempt);
      this.#lease.renewed(extended.expires_at);
      this.#input.onHeartbeat?.();
      return undefined;
    } catch (error) {
      if (DeliveryError.isInstance(error) && error.status === 409) {
        this.#cancel = true;
        return "stale";
      }
      this.#input.onError?.(error);
      return this.#giveUp(
        `The service could not renew the attempt's lease: ${quoted(errorMessages(error))}. It gave the attempt up and asked the agent to cancel the task.`,
      );
    }
  }

  /** Fails the attempt with `reason` and asks the agent to cancel the task. */
  #giveUp(reason: string): Promise<AttemptResult> {
    this.#cancel = true;
    return this.#settle({ kind: "fail", reason });
  }

  /**
   * Applies an outcome: the completion (the message id is its idempotency key), or the failure
   * with its reason. A completion the service refuses (its checks, as over HTTP, or the store's
   * rules), or cannot store, becomes a failure saying why; `stale` when another attempt holds
   * the item; `abandoned` when not even the failure can be stored (`onError` is told).
   */
  async #settle(outcome: FinalOutcome): Promise<AttemptResult> {
    const { operations, runId, agent } = this.#input;
    const item = this.#item;
    const messageId = (this.#message as Message).messageId;
    if (outcome.kind === "complete") {
      try {
        await operations.complete(runId, agent, item.id, outcome.body, messageId);
        return "completed";
      } catch (error) {
        if (DeliveryError.isInstance(error) && error.status === 409) return "stale";
        outcome = { kind: "fail", reason: this.#refusal(error) };
      }
    }
    const body = { attempt: this.#attempt, reason: this.#redacted(outcome.reason) };
    try {
      await operations.fail(runId, agent, item.id, body, messageId);
      return "failed";
    } catch (error) {
      if (DeliveryError.isInstance(error) && error.status === 409) return "stale";
      this.#input.onError?.(error);
      return "abandoned";
    }
  }

  /** `reason` without the agent's credentials and access tokens, should an answer quote them. */
  #redacted(reason: string): string {
    const authentication = this.#input.authentication;
    if (authentication === undefined) return reason;
    const secrets = [
      ...credentialSecrets(authentication.credentials),
      ...authentication.tokens.tokens(),
    ];
    return redactCredentials(reason, secrets);
  }

  /**
   * Why the service did not take the task's result: a limit or check it broke (as over HTTP),
   * another refusal, or the store's own error.
   */
  #refusal(error: unknown): string {
    if (DeliveryError.isInstance(error)) {
      const refused = refusedResult(error, this.#item.kind);
      if (refused !== undefined) return refused;
      const issues = (error.issues ?? []).map((issue) => ` ${issue.path}: ${issue.message}`);
      return `The service refused the A2A task's result (${error.code}): ${error.message}${issues.join("")}`;
    }
    this.#input.onError?.(error);
    return `The service could not store the A2A task's result: ${quoted(errorMessages(error))}. The item goes back on offer.`;
  }

  /**
   * Asks the agent to cancel a task the service gave up (best effort; most agents ignore it).
   * Not awaited: an agent may hold the request until the task ends, and the slot moves on; it is
   * given up after 5 s, or at once when the dispatcher stops.
   */
  #cancelTask(): void {
    const task = this.#snapshot.task;
    const { signal } = this.#input;
    if (!this.#cancel || task === undefined || signal.aborted) return;
    const { client } = this.#connection as AgentConnection;
    client
      .cancelTask(
        { tenant: "", id: task.id, metadata: undefined },
        { signal: AbortSignal.any([signal, AbortSignal.timeout(5000)]) },
      )
      .catch(() => undefined);
  }
}
