// A run's state as the database holds it: read in one batch of queries (the run's row first,
// locked on PostgreSQL), so that a store decides every command of the run in memory.

import type * as Contract from "@task-context/contract";
import type { TraceContext } from "@task-context/protocols";
import type { A2aEndpoint } from "../delivery/delivery-store.ts";
import {
  type AgentRecord,
  type ArtifactRecord,
  addAgentRecord,
  type IdempotencyRecord,
  type ItemRecord,
  idempotencyKeyOf,
  newRunState,
  type RunRecord,
  type RunState,
  type StageRecord,
  setItem,
  withdrawIfCanceled,
} from "../delivery/machine/run-state.ts";
import type { ItemRow, RunRow } from "./schema.ts";
import { batch, type SqlSteps, type Statement } from "./sql-steps.ts";

/** The run's row, locked until the transaction ends (PostgreSQL: `FOR UPDATE`). */
export const lockRun = (runId: string): Statement => ({
  kind: "all",
  sql: "SELECT * FROM runs WHERE id = ?",
  params: [runId],
  lock: true,
});

/**
 * Thrown into a transaction's steps that go on once it was given up (see
 * {@link LoadOptions.live}): they stop there, having changed nothing the store keeps.
 */
export class TransactionEndedError extends Error {
  constructor() {
    super("the transaction was given up while its reads were on their way: it changes nothing");
    this.name = "TransactionEndedError";
  }
}

/** The work items' query: each with its current attempt's outcome. */
const ITEMS = `SELECT item.*, attempt.outcome AS outcome FROM work_items item
      LEFT JOIN attempts attempt ON attempt.run_id = item.run_id
        AND attempt.work_item_id = item.id AND attempt.attempt = item.attempt
      WHERE item.run_id = ?`;
const AGENTS = "SELECT id AS agent_id, tag, a2a_endpoint FROM agents WHERE run_id = ?";
const ARTIFACTS = `SELECT id, seq, stage_position, stage_id, work_item_id, author_id, author_tag, title,
      media_type, created_at FROM artifacts WHERE run_id = ?`;
const KEYS = "SELECT agent_id, key, request_hash, response FROM idempotency_keys WHERE run_id = ?";

/** The queries that read the rest of a run's state, in the order {@link runStateOf} takes them. */
const rest = (runId: string): Statement[] => [
  {
    kind: "all",
    sql: "SELECT position, id, definition FROM stages WHERE run_id = ? ORDER BY position",
    params: [runId],
  },
  { kind: "all", sql: ITEMS, params: [runId] },
  { kind: "all", sql: `${AGENTS} ORDER BY created_at, id`, params: [runId] },
  { kind: "all", sql: `${ARTIFACTS} ORDER BY seq`, params: [runId] },
  { kind: "all", sql: KEYS, params: [runId] },
];

/**
 * The queries that read the rows of a run's state written after its version `since` (the rows
 * carry the run version that last wrote them: PostgreSQL's schema), in the order
 * {@link mergeChanges} takes them. Stages are not among them: they never change once the run is
 * created. An attempt's outcome changes only with its item (the machine writes both, in one
 * command), so the items written since carry every outcome that changed.
 */
const changedSince = (runId: string, since: number): Statement[] => [
  { kind: "all", sql: `${ITEMS} AND item.version > ?`, params: [runId, since] },
  {
    kind: "all",
    sql: `${AGENTS} AND version > ? ORDER BY created_at, id`,
    params: [runId, since],
  },
  { kind: "all", sql: `${ARTIFACTS} AND version > ? ORDER BY seq`, params: [runId, since] },
  { kind: "all", sql: `${KEYS} AND version > ?`, params: [runId, since] },
];

/** How {@link loadRunState} brings a kept state up to date. */
export interface LoadOptions {
  /**
   * The rows carry the run version that last wrote them (PostgreSQL's schema): a stale state
   * is brought up to date with the rows written since its version, not read again whole.
   */
  versionedRows?: boolean;
  /**
   * The kept state is likely stale (another instance writes the run too): the rows written since
   * its version are asked for with the lock, in its round trip, rather than after its answer.
   */
  likelyStale?: boolean;
  /**
   * Whether the transaction that reads is still running, asked once the answers are in and
   * before the kept state is changed in place: a transaction given up while its reads were on
   * their way (its connection lost) must not change the state the store keeps.
   */
  live?: () => boolean;
}

/**
 * The run's state, locking its row: `cached` when the run's version says it is still valid (one
 * query), else brought up to date (with `versionedRows`, in place with the rows written since its
 * version; else read again whole); undefined when the database has no such run. Without a valid
 * copy the run's row and the rest are read in one batch.
 */
export function* loadRunState(
  runId: string,
  cached: RunState | undefined,
  { versionedRows = false, likelyStale = false, live = () => true }: LoadOptions = {},
): SqlSteps<RunState | undefined> {
  if (cached !== undefined) {
    const since = cached.run.version;
    const changes = versionedRows ? changedSince(runId, since) : [];
    const ahead = likelyStale ? changes : [];
    const [runs, ...answers] = yield* batch([lockRun(runId), ...ahead]);
    // The kept state is the store's: not handed to, nor changed by, a transaction given up.
    if (!live()) throw new TransactionEndedError();
    const [run] = (runs ?? []) as RunRow[];
    if (run === undefined) return undefined;
    if (Number(run.version) === since) return cached;
    // Ahead of the database: a state no commit left (never kept, see RunTransaction): read whole.
    if (!versionedRows || Number(run.version) < since) {
      return runStateOf(run, yield* batch(rest(runId)));
    }
    const changed = likelyStale ? answers : yield* batch(changes);
    if (!live()) throw new TransactionEndedError();
    return mergeChanges(cached, run, changed);
  }
  const [runs, ...others] = yield* batch([lockRun(runId), ...rest(runId)]);
  const [run] = (runs ?? []) as RunRow[];
  return run === undefined ? undefined : runStateOf(run, others);
}

/**
 * `state` brought up to date, in place, with its run's row and the answers to
 * {@link changedSince}: the items written since replace those kept (the queue stays in offer
 * order, as a whole read sorts it), the agents, artifacts and idempotency keys added since are
 * added.
 */
function mergeChanges(
  state: RunState,
  row: RunRow,
  [items, agents, artifacts, keys]: unknown[][],
): RunState {
  state.run = runRecordOf(row);
  const changed = (items as ItemWithOutcome[]).map(itemRecordOf);
  changed.sort((left, right) => left.offered_seq - right.offered_seq);
  for (const item of changed) setItem(state, item);
  keepQueueInOfferOrder(state);
  for (const agent of agents as AgentRow[]) addAgentRecord(state, agentRecordOf(agent));
  // Only those not kept: a state read outside a transaction may hold some already.
  const last = state.artifacts.at(-1)?.seq ?? 0;
  for (const artifact of artifacts as ArtifactRecord[]) {
    const record = artifactRecordOf(artifact);
    if (record.seq > last) state.artifacts.push(record);
  }
  for (const key of keys as KeyRow[]) {
    const record = idempotencyRecordOf(key);
    state.idempotency.set(idempotencyKeyOf(record.agent_id, record.key), record);
  }
  withdrawIfCanceled(state);
  return state;
}

/**
 * Sorts the queue by offer when an item changed without being offered again went to its end:
 * the order a whole read of the run gives it.
 */
function keepQueueInOfferOrder(state: RunState): void {
  let previous = -Infinity;
  let sorted = true;
  for (const id of state.queue) {
    const seq = state.items.get(id)?.offered_seq ?? 0;
    if (seq < previous) {
      sorted = false;
      break;
    }
    previous = seq;
  }
  if (sorted) return;
  const ids = [...state.queue].sort(
    (left, right) =>
      (state.items.get(left)?.offered_seq ?? 0) - (state.items.get(right)?.offered_seq ?? 0),
  );
  state.queue.clear();
  for (const id of ids) state.queue.add(id);
}

/** A work item's row with its current attempt's outcome. */
type ItemWithOutcome = ItemRow & { outcome: ItemRecord["outcome"] };

/** An agent's row as the queries read it. */
interface AgentRow {
  agent_id: string;
  tag: string;
  a2a_endpoint: string | null;
}

/** An idempotency key's row. */
interface KeyRow {
  agent_id: string;
  key: string;
  request_hash: string;
  response: string;
}

/** A run's state from its row and the answers to {@link rest}. */
function runStateOf(row: RunRow, [stages, items, agents, artifacts, keys]: unknown[][]): RunState {
  return newRunState({
    run: runRecordOf(row),
    stages: (stages as { position: number; id: string; definition: string }[]).map(
      ({ position, id, definition }): StageRecord => ({
        position: Number(position),
        id,
        stage: JSON.parse(definition) as Contract.StageInput,
      }),
    ),
    items: (items as ItemWithOutcome[]).map(itemRecordOf),
    agents: (agents as AgentRow[]).map(agentRecordOf),
    artifacts: (artifacts as ArtifactRecord[]).map(artifactRecordOf),
    idempotency: (keys as KeyRow[]).map(idempotencyRecordOf),
  });
}

/** An agent as its row stores it. */
function agentRecordOf({ agent_id, tag, a2a_endpoint }: AgentRow): AgentRecord {
  return {
    agent_id,
    tag,
    a2a_stages: a2a_endpoint === null ? null : (JSON.parse(a2a_endpoint) as A2aEndpoint).stages,
  };
}

/** An artifact as its row stores it (numbers read as numbers). */
function artifactRecordOf(artifact: ArtifactRecord): ArtifactRecord {
  return {
    ...artifact,
    seq: Number(artifact.seq),
    stage_position: Number(artifact.stage_position),
    created_at: Number(artifact.created_at),
  };
}

/** An idempotency key as its row stores it. */
function idempotencyRecordOf({ agent_id, key, request_hash, response }: KeyRow): IdempotencyRecord {
  return { agent_id, key, request_hash, response: JSON.parse(response) };
}

/** The run as its row stores it. */
function runRecordOf(row: RunRow): RunRecord {
  return {
    id: row.id,
    goal: row.goal,
    constraints: JSON.parse(row.constraints) as string[],
    lease_ms: Number(row.lease_ms),
    max_attempts: Number(row.max_attempts),
    status: row.status,
    current_stage: Number(row.current_stage),
    last_seq: Number(row.last_seq),
    version: Number(row.version ?? 0),
    created_at: Number(row.created_at),
    trace_context:
      row.trace_context === null || row.trace_context === undefined
        ? null
        : (JSON.parse(row.trace_context) as TraceContext),
    canceled_at:
      row.canceled_at === null || row.canceled_at === undefined ? null : Number(row.canceled_at),
    cancel_reason: row.cancel_reason ?? null,
  };
}

/** A work item as its row (and its current attempt's outcome) stores it. */
function itemRecordOf(row: ItemWithOutcome): ItemRecord {
  return {
    id: row.id,
    stage_position: Number(row.stage_position),
    kind: row.kind,
    status: row.status,
    attempt: Number(row.attempt),
    failures: Number(row.failures),
    offered_seq: Number(row.offered_seq),
    holder_id: row.holder_id,
    holder_tag: row.holder_tag,
    lease_expires_at: row.lease_expires_at === null ? null : Number(row.lease_expires_at),
    target_artifact_id: row.target_artifact_id,
    target_author_id: row.target_author_id,
    target_author_tag: row.target_author_tag,
    dead_lettered_at: row.dead_lettered_at === null ? null : Number(row.dead_lettered_at),
    outcome: row.outcome ?? null,
  };
}
