// The service's side of A2A: for each A2A agent of a run, it claims the work items that agent may
// take — as that agent, through the operations a polling agent's requests run, with their checks,
// limits and spans — and carries each attempt out as an A2A task (a2a-attempt.ts). Leases,
// fencing, idempotency, events and receipts are the store's, unchanged.

import type { RunView } from "@task-context/contract";
import { withTraceContext } from "@task-context/core/tracing";
import type { WorkItem } from "@task-context/protocols";
import { defaultBodyBytes } from "../app.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { A2aAgent, DeliveryStore } from "../delivery/delivery-store.ts";
import { type AttemptResult, runAttempt } from "./a2a-attempt.ts";
import { type AgentOperations, agentOperations } from "./agent-operations.ts";
import { CardRefresh, DEFAULT_CARD_REFRESH_MS } from "./card-refresh.ts";
import { OAuthTokens } from "./oauth-tokens.ts";
import type { PushReceiver } from "./push-receiver.ts";
import { RunCancelWatches } from "./run-cancel-watch.ts";
import { transportError } from "./transport-error.ts";

/** Options of {@link A2aDispatcher}. */
export interface A2aDispatcherOptions {
  /** The service's store (the same one its app serves). */
  store: DeliveryStore;
  /** The service's own origin (e.g. `http://127.0.0.1:8787`): earlier artifacts' URIs use it. */
  serviceUrl?: string | undefined;
  /**
   * How often a task is polled with tasks/get when the agent does not stream (real time); the
   * clock is looked at as often (1 s at most) for leases that end. Default 1 000.
   */
  pollIntervalMs?: number;
  /** The longest wait for new offers before looking again. Default 5 000. */
  idleWaitMs?: number;
  /**
   * Follow tasks by streaming where the agent card offers it (default true); false: always poll
   * tasks/get (a Durable Object's alarm holds no stream).
   */
  streaming?: boolean;
  /**
   * The store's clock (default `Date.now`): leases' expiries, silent agents and stuck tasks are
   * measured with it, so that a test that moves it moves them.
   */
  clock?: () => number;
  /**
   * The largest completion an agent's result may make, in bytes of its JSON: the app's request
   * body limit (`limits.bodyBytes`, default 1 MiB), so that both entries take the same. An
   * answer of the agent is read up to 4 times this (room for the task and its history).
   */
  bodyBytes?: number;
  /** The `fetch` A2A requests go through (default: the global one). */
  fetch?: typeof fetch;
  /**
   * Push notifications (see `PushReceiver`): an agent whose card offers them is asked to push its
   * tasks' updates to the webhook under `publicUrl` instead of being followed on a stream or
   * polled. Without it (no public URL set), push notifications are not used.
   */
  push?: { receiver: PushReceiver; publicUrl: string; handOff?: boolean } | undefined;
  /**
   * How long an agent's card is used before it is read again (by `clock`), before the agent's
   * next attempt; after an attempt that failed with a transport error, at once. Default 1 hour.
   */
  cardRefreshMs?: number;
  /**
   * Told of an error the dispatcher could not attribute to an attempt, and of a store error
   * during an attempt (which the attempt records as its failure when the store lets it).
   */
  onError?: (error: unknown) => void;
}

/** What the dispatcher did so far, for tests, benchmarks and operators. */
export interface A2aDispatchStats {
  /** Attempts sent as A2A messages. */
  sent: number;
  completed: number;
  failed: number;
  /** Answers the store refused because another attempt held the item, or it was done. */
  stale: number;
  /** Attempts nothing came back for before their deadline. */
  abandoned: number;
  /** Attempts handed over to push notifications (`push.handOff`). */
  pushing: number;
  heartbeats: number;
}

/**
 * Delivers the work items of A2A agents: {@link watchRun} starts `concurrency` loops per A2A
 * agent of a run (each holds one attempt at a time); {@link close} stops them all. On Node the
 * server starts one dispatcher and watches every run that has A2A agents.
 */
export class A2aDispatcher {
  readonly stats: A2aDispatchStats = {
    sent: 0,
    completed: 0,
    failed: 0,
    stale: 0,
    abandoned: 0,
    pushing: 0,
    heartbeats: 0,
  };
  readonly #options: Required<
    Omit<A2aDispatcherOptions, "serviceUrl" | "onError" | "fetch" | "push" | "cardRefreshMs">
  > &
    Pick<A2aDispatcherOptions, "serviceUrl" | "onError" | "fetch" | "push">;
  readonly #stop = new AbortController();
  readonly #loops = new Map<string, Promise<void>[]>();
  /** The agents' claims, heartbeats, completions and failures, as their requests would run. */
  readonly #operations: AgentOperations;
  /** The OAuth 2 access tokens of its agents' clients, kept while fresh. */
  readonly #tokens: OAuthTokens;
  /** Its agents' cards, read again when due. */
  readonly #cards: CardRefresh;
  /** The runs of its attempts in flight, each watched for its cancel. */
  readonly #cancels: RunCancelWatches;

  constructor(options: A2aDispatcherOptions) {
    this.#options = {
      pollIntervalMs: 1000,
      idleWaitMs: 5000,
      streaming: true,
      clock: Date.now,
      bodyBytes: defaultBodyBytes,
      ...options,
    };
    const { store, clock, bodyBytes } = this.#options;
    this.#tokens = new OAuthTokens(clock, options.fetch);
    this.#cancels = new RunCancelWatches(store, options.onError);
    // A claim waits for nothing (wait 0): the pace of waits is never used.
    const timing = { clock, recheckMs: 1000, keepAliveMs: 15_000 };
    this.#cards = new CardRefresh({
      store,
      clock,
      refreshMs: options.cardRefreshMs ?? DEFAULT_CARD_REFRESH_MS,
      fetch: options.fetch,
    });
    const operations = agentOperations(
      { store, timing, shutdown: this.#stop.signal, bodyBytes },
      this.#stop.signal,
    );
    // A transport error makes the agent's card due: it may have moved.
    this.#operations = {
      ...operations,
      fail: (runId, agent, workItemId, body, idempotencyKey) => {
        if (transportError(body.reason) !== undefined) this.#cards.dueNow(runId, agent.agent_id);
        return operations.fail(runId, agent, workItemId, body, idempotencyKey);
      },
    };
  }

  /** Starts delivering to the run's A2A agents not served yet (call again after adding one). */
  async watchRun(runId: string): Promise<void> {
    const agents = await this.#options.store.a2aAgents(runId);
    for (const agent of agents) {
      const key = `${runId} ${agent.agent_id}`;
      if (this.#loops.has(key) || this.#stop.signal.aborted) continue;
      const loops = Array.from({ length: agent.a2a.concurrency }, () => this.#loop(runId, agent));
      this.#loops.set(key, loops);
    }
  }

  /** Stops every loop; attempts in flight end and their leases expire in the store. */
  async close(): Promise<void> {
    this.#stop.abort();
    await Promise.allSettled([...this.#loops.values()].flat());
  }

  /** Whether the dispatcher follows `agent`'s tasks on their stream (else by tasks/get). */
  streams(agent: Pick<A2aAgent, "a2a">): boolean {
    return this.#options.streaming && agent.a2a.card.capabilities?.streaming === true;
  }

  /**
   * Claims one item on offer to `agent` in its stages and carries the attempt out; false when
   * nothing was on offer to it.
   */
  async #claimAndAttempt(runId: string, registered: A2aAgent, run: RunView): Promise<boolean> {
    const agent = await this.#cards.current(runId, registered, this.#options.onError);
    // An agent of every stage may take any item: the store's claim-next takes the oldest offer.
    if (run.stages.every((stage) => agent.a2a.stages.includes(stage.id))) {
      return this.#attempt(runId, agent, run, undefined);
    }
    const identity = { agent_id: agent.agent_id, tag: agent.tag };
    const offers = await this.#options.store.offers(runId, identity, 50);
    for (const offer of offers) {
      if (!agent.a2a.stages.includes(offer.stage_id) || this.#stop.signal.aborted) continue;
      if (await this.#attempt(runId, agent, run, offer)) return true;
    }
    return false;
  }

  /**
   * Claims `offer` (or the oldest item on offer) for `agent` and carries the attempt out, in the
   * run's trace (its claim's, completion's and failure's spans continue it); false when another
   * agent took it first, or nothing was on offer.
   */
  async #attempt(
    runId: string,
    agent: A2aAgent,
    run: RunView,
    offer: WorkItem | undefined,
  ): Promise<boolean> {
    const { store } = this.#options;
    const identity = { agent_id: agent.agent_id, tag: agent.tag };
    const claim = await withTraceContext(offer?.trace_context, () =>
      this.#operations.claim(runId, identity, offer?.id).catch((error: unknown) => {
        if (DeliveryError.isInstance(error) && error.status === 409) return undefined;
        throw error;
      }),
    );
    if (claim === undefined) return false;
    this.stats.sent += 1;
    const { onError, fetch } = this.#options;
    const canceled = this.#cancels.acquire(runId);
    const result: AttemptResult = await withTraceContext(claim.work_item.trace_context, () =>
      runAttempt({
        store,
        operations: this.#operations,
        runId,
        agent: identity,
        card: agent.a2a.card,
        claim,
        leaseMs: run.lease_ms,
        streaming: this.streams(agent),
        pollIntervalMs: this.#options.pollIntervalMs,
        serviceUrl: this.#options.serviceUrl ?? agent.a2a.service_url,
        bodyBytes: this.#options.bodyBytes,
        signal: this.#stop.signal,
        runCanceled: canceled.signal,
        clock: this.#options.clock,
        onHeartbeat: () => {
          this.stats.heartbeats += 1;
        },
        ...(onError === undefined ? {} : { onError }),
        ...(fetch === undefined ? {} : { fetch }),
        push: this.#options.push,
        ...(agent.a2a.credentials === undefined
          ? {}
          : { authentication: { credentials: agent.a2a.credentials, tokens: this.#tokens } }),
      }),
    ).finally(canceled.release);
    this.stats[result] += 1;
    return true;
  }

  /**
   * One round for a run, where nothing may wait for long (a Durable Object's alarm): each A2A
   * agent's slots claim an item each and carry their attempts out together. The number of
   * attempts carried out; 0 when nothing was on offer to them.
   */
  async dispatchRound(runId: string): Promise<number> {
    const run = await this.#options.store.getRun(runId);
    if (run.status === "completed" || run.status === "canceled") return 0;
    const agents = await this.#options.store.a2aAgents(runId);
    const handedOff = await this.#handedOff(runId);
    // A task handed over to push notifications still holds its agent's slot until it ends.
    const slots = agents.flatMap((agent) =>
      Array.from(
        { length: Math.max(0, agent.a2a.concurrency - (handedOff.get(agent.agent_id) ?? 0)) },
        () => agent,
      ),
    );
    // Slots that race for one item: one claims it, the others get 409 and take the next offer.
    // A slot's error (its claim's store failed) is told, and the other slots' attempts stand.
    const done = await Promise.allSettled(
      slots.map((agent) => this.#claimAndAttempt(runId, agent, run)),
    );
    for (const slot of done) {
      if (slot.status === "rejected") this.#options.onError?.(slot.reason);
    }
    return done.filter((slot) => slot.status === "fulfilled" && slot.value).length;
  }

  /** How many tasks each agent has handed over to push notifications that have not ended. */
  async #handedOff(runId: string): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const { push } = this.#options;
    if (push?.handOff !== true) return counts;
    for (const task of await push.receiver.tasks.openTasks(runId)) {
      counts.set(task.agent_id, (counts.get(task.agent_id) ?? 0) + 1);
    }
    return counts;
  }

  /** One slot of an agent: claim an item it may take, carry it out, again, until the run ends. */
  async #loop(runId: string, agent: A2aAgent): Promise<void> {
    const { store } = this.#options;
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      try {
        const run = await store.getRun(runId);
        if (run.status === "completed" || run.status === "canceled") return;
        const seq = await store.lastSeq(runId);
        const claimed = await this.#claimAndAttempt(runId, agent, run);
        if (!claimed) {
          const timeoutMs = Math.min(this.#options.idleWaitMs, run.lease_ms);
          await store.changed(runId, seq, { timeoutMs, signal });
        }
      } catch (error) {
        if (signal.aborted) return;
        if (DeliveryError.isInstance(error) && error.code === "RUN_NOT_FOUND") return;
        this.#options.onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, this.#options.pollIntervalMs));
      }
    }
  }
}
