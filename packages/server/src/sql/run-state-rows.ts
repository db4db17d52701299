// A run's state as the database holds it: read in one batch of queries (the run's row first,
// locked on PostgreSQL), so that a store decides every command of the run in memory.

import type * as Contract from "@task-context/contract";
import type { TraceContext } from "@task-context/protocols";
import type { A2aEndpoint } from "../delivery/delivery-store.ts";
import {
  type AgentRecord,
  type ArtifactRecord,
  type IdempotencyRecord,
  type ItemRecord,
  newRunState,
  type RunRecord,
  type RunState,
  type StageRecord,
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

/** The queries that read the rest of a run's state, in the order {@link runStateOf} takes them. */
const rest = (runId: string): Statement[] => [
  {
    kind: "all",
    sql: "SELECT position, id, definition FROM stages WHERE run_id = ? ORDER BY position",
    params: [runId],
  },
  {
    kind: "all",
    sql: `SELECT item.*, attempt.outcome AS outcome FROM work_items item
      LEFT JOIN attempts attempt ON attempt.run_id = item.run_id
        AND attempt.work_item_id = item.id AND attempt.attempt = item.attempt
      WHERE item.run_id = ?`,
    params: [runId],
  },
  {
    kind: "all",
    sql: "SELECT id AS agent_id, tag, a2a_endpoint FROM agents WHERE run_id = ? ORDER BY created_at, id",
    params: [runId],
  },
  {
    kind: "all",
    sql: `SELECT id, seq, stage_position, stage_id, work_item_id, author_id, author_tag, title,
      media_type, created_at FROM artifacts WHERE run_id = ? ORDER BY seq`,
    params: [runId],
  },
  {
    kind: "all",
    sql: "SELECT agent_id, key, request_hash, response FROM idempotency_keys WHERE run_id = ?",
    params: [runId],
  },
];

/**
 * The run's state, locking its row: `cached` when the run's version says it is still valid (one
 * query), else read again; undefined when the database has no such run. Without a valid copy the
 * run's row and the rest are read in one batch.
 */
export function* loadRunState(
  runId: string,
  cached: RunState | undefined,
): SqlSteps<RunState | undefined> {
  if (cached !== undefined) {
    const [run] = (yield* batch<RunRow[]>([lockRun(runId)]))[0] ?? [];
    if (run === undefined) return undefined;
    if (Number(run.version) === cached.run.version) return cached;
    return runStateOf(run, yield* batch(rest(runId)));
  }
  const [runs, ...others] = yield* batch([lockRun(runId), ...rest(runId)]);
  const [run] = (runs ?? []) as RunRow[];
  return run === undefined ? undefined : runStateOf(run, others);
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
    items: (items as (ItemRow & { outcome: ItemRecord["outcome"] })[]).map(itemRecordOf),
    agents: (agents as { agent_id: string; tag: string; a2a_endpoint: string | null }[]).map(
      ({ agent_id, tag, a2a_endpoint }): AgentRecord => ({
        agent_id,
        tag,
        a2a_stages: a2a_endpoint === null ? null : (JSON.parse(a2a_endpoint) as A2aEndpoint).stages,
      }),
    ),
    artifacts: (artifacts as ArtifactRecord[]).map((artifact) => ({
      ...artifact,
      seq: Number(artifact.seq),
      stage_position: Number(artifact.stage_position),
      created_at: Number(artifact.created_at),
    })),
    idempotency: (
      keys as { agent_id: string; key: string; request_hash: string; response: string }[]
    ).map(
      ({ agent_id, key, request_hash, response }): IdempotencyRecord => ({
        agent_id,
        key,
        request_hash,
        response: JSON.parse(response),
      }),
    ),
  });
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
  };
}

/** A work item as its row (and its current attempt's outcome) stores it. */
function itemRecordOf(row: ItemRow & { outcome: ItemRecord["outcome"] }): ItemRecord {
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
