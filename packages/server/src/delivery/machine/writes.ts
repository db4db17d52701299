// What a command changes, as data: each write is one row to insert or update, complete in itself
// (no write needs what a read answers), so that a store can send a command's writes as one batch
// and a copy of the state can follow them (applyWrites) without reading again.
import type { CollaborationEvent, ContentFinding, ReviewFeedback } from "@task-context/protocols";
import type { A2aEndpoint, StoredAgent } from "../delivery-store.ts";
import {
  type AgentRecord,
  type ArtifactRecord,
  type AttemptOutcome,
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
} from "./run-state.ts";

/** One change to a run's rows. */
export type Write =
  /** A new run and its stages. */
  | { type: "insertRun"; run: RunRecord; stages: readonly StageRecord[] }
  /** Where the run stands now: status, current stage, last seq and version. */
  | {
      type: "updateRun";
      status: RunRecord["status"];
      current_stage: number;
      last_seq: number;
      version: number;
    }
  /** The run canceled: when, and why (null: no reason given). */
  | { type: "cancelRun"; canceled_at: number; cancel_reason: string | null }
  /** A new agent (its token only as a hash). */
  | { type: "insertAgent"; agent: StoredAgent; created_at: number }
  /** An A2A agent's endpoint as its card's last check left it (its stages unchanged). */
  | { type: "updateAgentEndpoint"; agent_id: string; endpoint: A2aEndpoint }
  /** A new work item. */
  | { type: "insertItem"; item: ItemRecord }
  /** A work item as it stands now (every column that changes). */
  | { type: "updateItem"; item: ItemRecord }
  /** A new attempt at a work item: a lease taken. */
  | {
      type: "insertAttempt";
      work_item_id: string;
      attempt: number;
      agent_id: string;
      agent_tag: string;
      leased_at: number;
    }
  /**
   * How an attempt ended: `ended_at` unless it had ended already (an expired lease completed
   * late keeps its expiry as its end).
   */
  | {
      type: "endAttempt";
      work_item_id: string;
      attempt: number;
      outcome: Exclude<AttemptOutcome, "leased">;
      reason: string | null;
      ended_at: number;
    }
  /** A new artifact with its content, and what it holds that poses as instructions. */
  | {
      type: "insertArtifact";
      artifact: ArtifactRecord;
      content: string;
      findings: readonly ContentFinding[];
    }
  /** A review's feedback. */
  | { type: "insertReview"; feedback: ReviewFeedback; created_at: number }
  /** An event of the run (its seq the run's next). */
  | { type: "insertEvent"; event: CollaborationEvent }
  /** An answered `Idempotency-Key` and its answer. */
  | ({ type: "insertIdempotencyKey" } & IdempotencyRecord);

/** The agent as the state keeps it. */
export function agentRecordOf(agent: StoredAgent): AgentRecord {
  return {
    agent_id: agent.agent_id,
    tag: agent.tag,
    a2a_stages: agent.a2a === undefined ? null : [...agent.a2a.stages],
  };
}

/**
 * The state after `writes`: `state` itself, changed in place (a new one for a run's
 * `insertRun`). Applying a command's writes to the state it was decided on gives the state a
 * store that persisted them would load.
 */
export function applyWrites(state: RunState | undefined, writes: readonly Write[]): RunState {
  let current = state;
  for (const write of writes) {
    if (write.type === "insertRun") {
      current = newRunState({
        run: write.run,
        stages: write.stages,
        items: [],
        agents: [],
        artifacts: [],
        idempotency: [],
      });
      continue;
    }
    if (current === undefined) throw new Error(`${write.type} before the run was inserted`);
    applyWrite(current, write);
  }
  if (current === undefined) throw new Error("no run to apply writes to");
  return current;
}

function applyWrite(state: RunState, write: Exclude<Write, { type: "insertRun" }>): void {
  switch (write.type) {
    case "updateRun":
      state.run.status = write.status;
      state.run.current_stage = write.current_stage;
      state.run.last_seq = write.last_seq;
      state.run.version = write.version;
      return;
    case "cancelRun":
      state.run.status = "canceled";
      state.run.canceled_at = write.canceled_at;
      state.run.cancel_reason = write.cancel_reason;
      withdrawIfCanceled(state);
      return;
    case "insertAgent":
      addAgentRecord(state, agentRecordOf(write.agent));
      return;
    case "insertItem":
    case "updateItem":
      setItem(state, write.item);
      return;
    case "insertArtifact":
      state.artifacts.push(write.artifact);
      return;
    case "insertIdempotencyKey": {
      const { type: _, ...record } = write;
      state.idempotency.set(idempotencyKeyOf(record.agent_id, record.key), record);
      return;
    }
    // Rows the state does not keep: attempts (an item keeps its current one's outcome), reviews,
    // events (the run keeps its last seq) and A2A endpoints (the stages it keeps do not change).
    case "insertAttempt":
    case "endAttempt":
    case "insertReview":
    case "insertEvent":
    case "updateAgentEndpoint":
      return;
  }
}
