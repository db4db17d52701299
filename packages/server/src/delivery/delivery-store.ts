import type {
  AttemptRecord,
  CardSignature,
  ClaimView,
  CompleteBody,
  CompletionView,
  CreateRunInput,
  DeadLetter,
  EventPage,
  FailBody,
  FailureView,
  HeartbeatView,
  JsonWebKeySet,
  RunView,
} from "@task-context/contract";
import type { Artifact, ReviewFeedback, TraceContext, WorkItem } from "@task-context/protocols";
import type { AgentCredential } from "../a2a/card-credentials.ts";
import type { ReadInput, ReadOutput, ReadRunId } from "../sql/define-read.ts";
import type { ReadName, Reads } from "../sql/reads.ts";
import type { CardCheck } from "./machine/check-card.ts";
import type { Receipt } from "./receipt.ts";
import type { ItemStatus } from "./rules.ts";

/**
 * What a completion answers: its `view` (the wire answer but for the receipt's warning) and its
 * `receipt`, typed — whether the run-context hash the agent quoted is the item's current one;
 * undefined when it quoted none. An answer given again for its idempotency key carries the same.
 * The operation's edge turns a stale receipt into the answer's `warning`.
 */
export interface Completed {
  view: CompletionView;
  receipt: Receipt | undefined;
}

/** The agent a request acts for, once its token is checked. */
export interface AgentIdentity {
  agent_id: string;
  tag: string;
}

/** An agent as stored: its token only as a SHA-256 hash. */
export interface StoredAgent extends AgentIdentity {
  token_hash: string;
  /** An A2A agent: the service delivers its work items to this endpoint (see ../a2a). */
  a2a?: A2aEndpoint | undefined;
}

/** Where an A2A agent of a run is reached, as read and checked when it was registered. */
export interface A2aEndpoint {
  /** The agent's base URL: its agent card is `/.well-known/agent-card.json` under it. */
  url: string;
  /** The agent card as read at registration (A2A 1.0 JSON). */
  card: A2aAgentCard;
  /** The ids of the run's stages whose `available_skills` the card's skills cover. */
  stages: string[];
  /** How many work items the service holds for it at once (each its own A2A task). */
  concurrency: number;
  /** The service's origin as the admin reached it: earlier artifacts' URIs are under it. */
  service_url: string;
  /** How the card's signatures were verified (agents registered before: none recorded). */
  card_signature?: CardSignature | undefined;
  /** The key set pinned at registration (`a2a.jwks`): public keys, kept to verify the card again. */
  jwks?: JsonWebKeySet | undefined;
  /** The registration requires a verified signature (`a2a.require_signature`). */
  require_signature?: boolean | undefined;
  /**
   * The card's last check: when (milliseconds since the epoch), and what came of it — read at
   * registration, read again unchanged, changed, or not taken (why: the last good card is kept).
   */
  card_check?:
    | { at: number; outcome: "registered" | "unchanged" | "changed" | "failed"; reason?: string }
    | undefined;
  /**
   * The credentials it was registered with, as they are sent (see ../a2a/card-credentials.ts):
   * stored apart from the endpoint (read only by the dispatcher), never shown in a read.
   */
  credentials?: AgentCredential[] | undefined;
}

/**
 * What the service keeps of an agent card: its name, the interfaces it can send to, whether it
 * streams, its skills (cards registered by earlier versions kept every field, and read the same).
 */
export interface A2aAgentCard {
  name: string;
  description?: string | undefined;
  version?: string | undefined;
  supportedInterfaces: {
    url: string;
    protocolBinding: string;
    protocolVersion?: string;
    tenant?: string;
  }[];
  capabilities?: { streaming?: boolean | undefined; pushNotifications?: boolean | undefined };
  skills: {
    id: string;
    name: string;
    tags?: string[] | undefined;
    securityRequirements?: unknown[] | undefined;
  }[];
  /** The card's security schemes and requirements, as it declared them (A2A 1.0 JSON). */
  securitySchemes?: Record<string, unknown> | undefined;
  securityRequirements?: unknown[] | undefined;
  [field: string]: unknown;
}

/** An A2A agent of a run. */
export interface A2aAgent extends AgentIdentity {
  a2a: A2aEndpoint;
}

/**
 * An `Idempotency-Key` and what it was sent with: the same key with the same request answers
 * the first answer again; with another request, `IDEMPOTENCY_KEY_REUSED`.
 */
export interface IdempotencyKey {
  key: string;
  /** A hash of the operation, the work item and the body. */
  requestHash: string;
}

/** A work item as the run page shows it: where it stands, who holds it, what it was built from. */
export interface WorkItemOverview {
  id: string;
  stage_id: string;
  kind: "task" | "review";
  state: ItemStatus;
  /** The work item's `attempt`: the current (or last) lease's; on offer, the one a claim starts. */
  attempt: number;
  /** The agent holding the lease (leased), or the last one that did. */
  holder_tag?: string;
  /** When the lease ends (leased items only). */
  lease_expires_at?: string;
  /** The receipt: the run-context hash the item is built from. */
  context_sha256: string;
  /** Review items: the artifact they review. */
  target_artifact_id?: string;
  /** Every attempt so far, oldest first (a dead letter's history). */
  attempts: AttemptRecord[];
}

/** Everything the run page shows, read at one instant. */
export interface RunOverview {
  run: RunView;
  /** Every work item, stage by stage, in the order they were offered. */
  work_items: WorkItemOverview[];
  /** Every artifact with its content, stage by stage. */
  artifacts: Artifact[];
  /** Every review's feedback, oldest first. */
  reviews: ReviewFeedback[];
}

/** Where a page of the read `runList` starts: after this run, newest first. */
export interface RunListPosition {
  /** The run's `created_at`, in milliseconds since the epoch. */
  created_at: number;
  run_id: string;
}

/** What the read `runList` is asked for. */
export interface RunListQuery {
  /** Only runs with one of these statuses; undefined: every run. */
  statuses: readonly RunView["status"][] | undefined;
  /** At most this many runs. */
  limit: number;
  /** Only runs after this one, newest first; undefined: from the newest. */
  after: RunListPosition | undefined;
}

/** A run as the read `runList` reads it. */
export interface RunListEntry extends RunListPosition {
  status: RunView["status"];
  /** The start of the goal (at least its first 400 characters). */
  goal: string;
  /** The id of the stage the run is at; null once completed. */
  current_stage: string | null;
}

/** A failed attempt of an A2A agent, as the read `agentList` reads it. */
export interface AgentFailure {
  /** When it ended, in milliseconds since the epoch. */
  at: number;
  work_item_id: string;
  attempt: number;
  reason: string;
}

/** An agent of a run as the read `agentList` reads it: never its token. */
export interface AgentListing extends AgentIdentity {
  /** The ids of the stages whose items it may take. */
  stages: string[];
  /** An A2A agent: its endpoint, and its last failed attempts, newest first. */
  a2a?: { endpoint: A2aEndpoint; failures: AgentFailure[] } | undefined;
}

/** What a run is created with besides its input. */
export interface CreateRunOptions {
  /**
   * The W3C trace context the run was created in (from the request's `traceparent` and
   * `tracestate` headers): stored with the run, carried by each of its work items as
   * `trace_context`. None: the items carry none.
   */
  traceContext?: TraceContext | undefined;
}

/** How long {@link DeliveryStore.changed} waits. */
export interface ChangedOptions {
  /** Give up after this many milliseconds (real time). */
  timeoutMs: number;
  /** Give up when this aborts (the client went away, the server stops). */
  signal?: AbortSignal;
}

/** How a claim-next waits, and how many items it may claim. */
export interface ClaimNextOptions extends ChangedOptions {
  /** Claim up to this many offers at once (`max_items`); undefined: one, answered without `claims`. */
  limit?: number | undefined;
  /**
   * The safety recheck (ms): a look at the run that found nothing on offer lets a new wait skip
   * its claim for at most this long, in case a change was never told (a lost notification);
   * undefined: until the next change.
   */
  recheckMs?: number | undefined;
}

/**
 * The delivery service's domain: runs, their stages and work items, leases, artifacts, reviews
 * and events. Every method is scoped to one run (`runId` first) and asynchronous, so that one
 * store can hold every run (Node, SQLite) or forward each call to the run's own storage (a
 * Durable Object on Workers). Failures are `DeliveryError`s whose `status` is the HTTP answer.
 *
 * Rules every implementation keeps (the contract suite checks them): stages advance in order;
 * review items are never offered to, nor claimable by, the reviewed artifact's author; only the
 * current attempt of a lease may heartbeat, complete or fail (an expired lease nobody else claimed
 * may still complete); lease expiry is evaluated whenever a run is read or changed, not only by a
 * timer; every state change appends one event with the run's next `seq`, in the same transaction.
 *
 * A method added here is added to `storeMethods` too (store-methods.ts: how a store that keeps
 * each run apart forwards it), or the list is a type error.
 */
export interface DeliveryStore {
  /**
   * Creates a run under a new id (the caller makes it with `newId("run")`, so that a router can
   * send the call to the run's own storage) and offers the items of its first stage.
   * `INVALID_STAGES` for a bad stage graph.
   */
  createRun(runId: string, input: CreateRunInput, options?: CreateRunOptions): Promise<RunView>;
  /** The run with its stages' item counts. */
  getRun(runId: string): Promise<RunView>;
  /**
   * The read `name` of the registry of reads (../sql/reads.ts: one file each in ../sql/reads/):
   * a read of one run on the run `runId` (its overdue leases expired; `RUN_NOT_FOUND` when there
   * is no such run), a read across runs with `runId` undefined. E.g.
   * `query("agentList", runId, { failures: 5 })`, `query("runList", undefined, { … })`.
   */
  query<Name extends ReadName>(
    name: Name,
    runId: ReadRunId<Reads[Name]>,
    input: ReadInput<Reads[Name]>,
  ): Promise<ReadOutput<Reads[Name]>>;
  /** Adds an agent (its token hashed by the caller). `AGENT_TAG_TAKEN` for a tag in use. */
  addAgent(runId: string, agent: StoredAgent): Promise<void>;

  /**
   * Stores an A2A agent's endpoint as a check of its card left it, and records what changed
   * (`agent.card_changed`) or why the card was not taken (`agent.card_check_failed`).
   */
  checkCard(runId: string, check: CardCheck): Promise<void>;
  /** The agent with that id in the run, or undefined. */
  findAgent(runId: string, agentId: string): Promise<StoredAgent | undefined>;
  /** The run's A2A agents, in the order they were added. */
  a2aAgents(runId: string): Promise<A2aAgent[]>;
  /** Items `agent` may claim now, oldest offer first, at most `limit`. */
  offers(runId: string, agent: AgentIdentity, limit: number): Promise<WorkItem[]>;
  /**
   * Claims one item (`workItemId`) or the oldest one on offer to `agent` (undefined): a new
   * attempt with a lease. Undefined when nothing is on offer (claim-next only).
   */
  claim(
    runId: string,
    agent: AgentIdentity,
    workItemId: string | undefined,
    /**
     * Claim-next only: claims up to this many offers, oldest first, all listed in the answer's
     * `claims` (its `work_item` and `lease` are the first's).
     */
    limit?: number,
  ): Promise<ClaimView | undefined>;
  /**
   * Claim-next that waits: claims the oldest item on offer to `agent` (up to `options.limit` of
   * them, as {@link claim} does); when none is, waits in the run's line of claim-next callers
   * until an item it may take is offered (each change of the run wakes one waiter per item on
   * offer, first come first served), then claims. Undefined when `options.timeoutMs` pass (real
   * time; 0: no wait) or `options.signal` aborts first.
   */
  claimNext(
    runId: string,
    agent: AgentIdentity,
    options: ClaimNextOptions,
  ): Promise<ClaimView | undefined>;
  /** Extends the lease of the current attempt. */
  heartbeat(
    runId: string,
    agent: AgentIdentity,
    workItemId: string,
    attempt: number,
  ): Promise<HeartbeatView>;
  /** Completes an item with its artifact (task) or review (review); its view and its receipt. */
  complete(
    runId: string,
    agent: AgentIdentity,
    workItemId: string,
    body: CompleteBody,
    idempotency?: IdempotencyKey,
  ): Promise<Completed>;
  /** Gives an attempt up: back on offer, or dead-lettered after `max_attempts`. */
  fail(
    runId: string,
    agent: AgentIdentity,
    workItemId: string,
    body: FailBody,
    idempotency?: IdempotencyKey,
  ): Promise<FailureView>;
  /** The run's dead-lettered items with their attempts. */
  deadLetters(runId: string): Promise<DeadLetter[]>;
  /** Puts a dead-lettered item back on offer with a fresh failure budget. */
  requeue(runId: string, workItemId: string): Promise<WorkItem>;
  /**
   * Cancels the run (`run.canceled`), withdrawing its items; the run as it is now. Canceling a
   * canceled run changes nothing; `RUN_COMPLETED` for a completed one.
   */
  cancelRun(runId: string, reason: string | undefined): Promise<RunView>;
  /** An artifact with its content. */
  artifact(runId: string, artifactId: string): Promise<Artifact>;
  /** The run, its work items, artifacts and reviews at one instant: what the run page shows. */
  overview(runId: string): Promise<RunOverview>;
  /** Events with `seq` greater than `after`, at most `limit`. */
  events(runId: string, after: number, limit: number): Promise<EventPage>;
  /** The run's last `seq` (0 before any event). */
  lastSeq(runId: string): Promise<number>;
  /**
   * Resolves true as soon as the run has an event after `after`, false when the wait ends or is
   * aborted first. Long polls and the event stream wait on it.
   */
  changed(runId: string, after: number, options: ChangedOptions): Promise<boolean>;
  /** Expires the run's overdue leases now (alarms and timers call it; every query does too). */
  expireLeases(runId: string): Promise<void>;
}
