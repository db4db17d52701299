// What the state machine knows of one run: the run, its stages, its work items (where each
// stands, who holds it, until when), its agents, its artifacts (without their content) and the
// idempotency keys it has answered — everything a state-changing command reads, so that deciding
// needs no query. A store loads it once (or keeps it) and changes it only through applyWrites.

import type * as Contract from "@task-context/contract";
import type { TraceContext } from "@task-context/protocols";
import { type ItemState, type ItemStatus, itemStatus } from "../rules.ts";

/** A run's status. */
export type RunStatus = Contract.RunView["status"];

/** How an attempt ended so far (`"leased"` while it runs). */
export type AttemptOutcome = Contract.AttemptRecord["outcome"];

/** The run itself: its fixed input and where it stands. */
export interface RunRecord {
  id: string;
  goal: string;
  constraints: string[];
  lease_ms: number;
  max_attempts: number;
  status: RunStatus;
  /** The position of the stage being worked on (the last one once the run is completed). */
  current_stage: number;
  /** The seq of the run's last event (0 before any). */
  last_seq: number;
  /**
   * Moves on with every command that changes the run, events or not (a heartbeat appends none):
   * a copy of the state is valid while the stored run has the same version.
   */
  version: number;
  created_at: number;
  /** The W3C trace context the run was created in, which its work items carry; null: none. */
  trace_context: TraceContext | null;
  /** When the run was canceled (milliseconds since the epoch); null while it is not. */
  canceled_at: number | null;
  /** Why it was canceled, as the admin said; null when no reason was given (or not canceled). */
  cancel_reason: string | null;
}

/** A stage of a run: its position, id and definition (never changed once the run exists). */
export interface StageRecord {
  position: number;
  id: string;
  /** The definition as stored: `kind` always set, a task stage's `items` too. */
  stage: Contract.StageInput;
}

/** A work item: what the rules look at, and where it stands. */
export interface ItemRecord extends ItemState {
  stage_position: number;
  /** The seq of the event that last put it on offer: the queue's order. */
  offered_seq: number;
  holder_tag: string | null;
  lease_expires_at: number | null;
  target_author_tag: string | null;
  dead_lettered_at: number | null;
  /** How its current attempt ended so far; null before the first claim. */
  outcome: AttemptOutcome | null;
}

/** An agent of the run, as the machine needs it. */
export interface AgentRecord {
  agent_id: string;
  tag: string;
  /** An A2A agent's stages (the service delivers their items to it); null for the others. */
  a2a_stages: readonly string[] | null;
}

/** An artifact of the run, without its content. */
export interface ArtifactRecord {
  id: string;
  /** The seq of its `artifact.created` event: the order of the run's artifacts. */
  seq: number;
  stage_position: number;
  stage_id: string;
  work_item_id: string;
  author_id: string;
  author_tag: string;
  title: string | null;
  media_type: string;
  created_at: number;
}

/** An `Idempotency-Key` the run has answered, and its answer. */
export interface IdempotencyRecord {
  agent_id: string;
  key: string;
  request_hash: string;
  response: unknown;
}

/** How many items of a stage are in each status. */
export type StatusCounts = Record<ItemStatus, number>;

/**
 * One run as the machine sees it. `items` is the truth; `queue`, `leased`, `deadLettered` and
 * `counts` are indexes of it that {@link setItem} keeps (the queue in offer order).
 */
export interface RunState {
  run: RunRecord;
  stages: readonly StageRecord[];
  items: Map<string, ItemRecord>;
  /** The ids of the items on offer, oldest offer first. */
  queue: Set<string>;
  /** The ids of the leased items. */
  leased: Set<string>;
  /**
   * No leased item's lease expires before this (milliseconds; `Infinity` when none ever was
   * leased): a lower bound that {@link setItem} lowers and {@link leaseExpiryFloor} makes exact
   * again, so that a command finds nothing overdue without looking at every lease.
   */
  leaseFloor: number;
  /** The ids of the dead-lettered items. */
  deadLettered: Set<string>;
  /** Each stage's items by status, by stage position. */
  counts: StatusCounts[];
  /** The agents by id. */
  agents: Map<string, AgentRecord>;
  /** The agents' tags (unique in a run). */
  tags: Set<string>;
  /** The artifacts, in `seq` order. */
  artifacts: ArtifactRecord[];
  /** The answered idempotency keys, by {@link idempotencyKeyOf}. */
  idempotency: Map<string, IdempotencyRecord>;
}

/** What a run's state is made of, as a store reads it. */
export interface RunStateRows {
  run: RunRecord;
  stages: readonly StageRecord[];
  items: Iterable<ItemRecord>;
  agents: Iterable<AgentRecord>;
  artifacts: Iterable<ArtifactRecord>;
  idempotency: Iterable<IdempotencyRecord>;
}

/** A stage's counts with nothing in it. */
export const noItems = (): StatusCounts => ({
  offered: 0,
  leased: 0,
  completed: 0,
  dead_lettered: 0,
});

/** Where an idempotency key is kept in {@link RunState.idempotency}. */
export const idempotencyKeyOf = (agentId: string, key: string) => `${agentId}\u0000${key}`;

/** A run's state from its rows (in any order: the queue is sorted by offer, artifacts by seq). */
export function newRunState(rows: RunStateRows): RunState {
  const state: RunState = {
    run: { ...rows.run },
    stages: rows.stages,
    items: new Map(),
    queue: new Set(),
    leased: new Set(),
    leaseFloor: Number.POSITIVE_INFINITY,
    deadLettered: new Set(),
    counts: rows.stages.map(noItems),
    agents: new Map(),
    tags: new Set(),
    artifacts: [...rows.artifacts].sort((left, right) => left.seq - right.seq),
    idempotency: new Map(),
  };
  const items = [...rows.items].sort((left, right) => left.offered_seq - right.offered_seq);
  for (const item of items) setItem(state, item);
  for (const agent of rows.agents) addAgentRecord(state, agent);
  for (const record of rows.idempotency) {
    state.idempotency.set(idempotencyKeyOf(record.agent_id, record.key), record);
  }
  withdrawIfCanceled(state);
  return state;
}

/**
 * A canceled run's items are withdrawn: none is on offer or leased any more (its rows keep the
 * status they had when the run was canceled, which the run's status overrides), so nothing is
 * offered, claimed, expired or sent to an A2A agent again.
 */
export function withdrawIfCanceled(state: RunState): void {
  if (state.run.status !== "canceled") return;
  state.queue.clear();
  state.leased.clear();
  state.leaseFloor = Number.POSITIVE_INFINITY;
}

/** Whether the run has ended for good (completed or canceled): nothing is due for it again. */
export function runEnded(run: Pick<RunRecord, "status">): boolean {
  return run.status === "completed" || run.status === "canceled";
}

/** The indexes an item's status puts it in. */
function indexOf(state: RunState, status: ItemStatus): Set<string> | undefined {
  if (state.run.status === "canceled" && status !== itemStatus.deadLettered) return undefined;
  if (status === itemStatus.offered) return state.queue;
  if (status === itemStatus.leased) return state.leased;
  if (status === itemStatus.deadLettered) return state.deadLettered;
  return undefined;
}

/**
 * Puts an item (new or changed) into the state and its indexes: an item put on offer goes to the
 * end of the queue, as its new `offered_seq` is the run's latest.
 */
export function setItem(state: RunState, item: ItemRecord): void {
  const before = state.items.get(item.id);
  if (before !== undefined) {
    indexOf(state, before.status)?.delete(item.id);
    const counts = state.counts[before.stage_position];
    if (counts !== undefined) counts[before.status] -= 1;
  }
  state.items.set(item.id, item);
  indexOf(state, item.status)?.add(item.id);
  if (
    item.status === itemStatus.leased &&
    item.lease_expires_at !== null &&
    item.lease_expires_at < state.leaseFloor
  ) {
    state.leaseFloor = item.lease_expires_at;
  }
  let counts = state.counts[item.stage_position];
  if (counts === undefined) {
    counts = noItems();
    state.counts[item.stage_position] = counts;
  }
  counts[item.status] += 1;
}

/** Adds an agent to the state. */
export function addAgentRecord(state: RunState, agent: AgentRecord): void {
  state.agents.set(agent.agent_id, agent);
  state.tags.add(agent.tag);
}

/** A stage's status, which follows from the run's current stage and status. */
export function stageStatus(run: RunRecord, position: number): Contract.StageView["status"] {
  if (position < run.current_stage) return "completed";
  if (position > run.current_stage) return "pending";
  return run.status === "completed" ? "completed" : "active";
}

/** The definition of the stage a work item belongs to. */
export function stageOf(
  state: Pick<RunState, "stages">,
  item: Pick<ItemRecord, "id" | "stage_position">,
): StageRecord {
  const entry = state.stages[item.stage_position];
  if (entry === undefined) throw new Error(`work item ${item.id} has no stage`);
  return entry;
}

/** The earliest lease expiry of the run (milliseconds), or undefined when nothing is leased. */
export function nextLeaseExpiry(state: RunState): number | undefined {
  let next: number | undefined;
  for (const id of state.leased) {
    const expiry = state.items.get(id)?.lease_expires_at;
    if (expiry !== null && expiry !== undefined && (next === undefined || expiry < next)) {
      next = expiry;
    }
  }
  return next;
}

/**
 * A lower bound of the run's lease expiries (milliseconds): `state.leaseFloor`, made exact again
 * (from the leases themselves) once `now` has reached it — a lease it stood for may have ended
 * or been extended since. Above `now`, nothing leased in `state` is overdue.
 */
export function leaseExpiryFloor(state: RunState, now: number): number {
  if (state.leaseFloor > now) return state.leaseFloor;
  state.leaseFloor = nextLeaseExpiry(state) ?? Number.POSITIVE_INFINITY;
  return state.leaseFloor;
}

/**
 * Whether an A2A agent of the run has an item on offer in its stages (an A2A round is due): a
 * review of the agent's own artifact does not count, as it may not claim it.
 */
export function a2aWorkOnOffer(state: RunState): boolean {
  if (runEnded(state.run) || state.queue.size === 0) return false;
  for (const agent of state.agents.values()) {
    if (agent.a2a_stages === null) continue;
    for (const id of state.queue) {
      const item = state.items.get(id);
      if (item === undefined || item.target_author_id === agent.agent_id) continue;
      const stage = state.stages[item.stage_position];
      if (stage !== undefined && agent.a2a_stages.includes(stage.id)) return true;
    }
  }
  return false;
}
