// Runs, their stages and their agents: creating them and reading what every operation on a run
// starts from.
import { ArgumentError } from "@task-context/core";
import type { TraceContext } from "@task-context/protocols/work-item";
import type * as Contract from "../contract/schemas.ts";
import { DeliveryError, runNotFound } from "../delivery/delivery-error.ts";
import type {
  A2aAgent,
  A2aEndpoint,
  AgentIdentity,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import type { RunRow } from "./schema.ts";
import { all, lockedRows, run, type SqlSteps } from "./sql-steps.ts";

/** A stage of a run: its position, id and definition (never changed once the run exists). */
export interface StageDefinition {
  position: number;
  id: string;
  stage: Contract.StageInput;
}

/** What one operation on a run reads once: the run and its stages, at `now`. */
export interface RunState {
  run: RunRow;
  stages: Array<StageDefinition & { status: Contract.StageView["status"] }>;
  now: number;
}

/**
 * The stage definitions of the runs a store has read, by run id: a run's stages never change, so
 * each run's are read and parsed once (for the most recent RUNS_REMEMBERED runs).
 */
export type StageDefinitions = Map<string, readonly StageDefinition[]>;

const RUNS_REMEMBERED = 1000;

/**
 * Reads a run at `now`, with its stages (`lock`: its row locked until the transaction ends);
 * `RUN_NOT_FOUND` for a run the database does not hold.
 * A stage's status follows from the run's current stage: the ones before it are completed, it
 * is active (completed once the run is), the ones after it are pending.
 */
export function* loadRunState(
  runId: string,
  now: number,
  definitions: StageDefinitions,
  { lock = false }: { lock?: boolean } = {},
): SqlSteps<RunState> {
  // Locked, the run's row orders the transactions that write to the run (PostgreSQL).
  const read = lock ? lockedRows<RunRow> : all<RunRow>;
  const [run] = yield* read("SELECT * FROM runs WHERE id = ?", runId);
  if (run === undefined) throw runNotFound(runId);
  let stages = definitions.get(runId);
  if (stages === undefined) {
    stages = (yield* all<{ position: number; id: string; definition: string }>(
      "SELECT position, id, definition FROM stages WHERE run_id = ? ORDER BY position",
      runId,
    )).map(({ position, id, definition }) => ({
      position,
      id,
      stage: JSON.parse(definition) as Contract.StageInput,
    }));
    if (definitions.size >= RUNS_REMEMBERED) {
      definitions.delete(definitions.keys().next().value as string);
    }
    definitions.set(runId, stages);
  }
  return {
    run: { ...run },
    stages: stages.map((stage) => ({ ...stage, status: stageStatus(run, stage.position) })),
    now,
  };
}

function stageStatus(run: RunRow, position: number): Contract.StageView["status"] {
  if (position < run.current_stage) return "completed";
  if (position > run.current_stage) return "pending";
  return run.status === "completed" ? "completed" : "active";
}

/** The definition of the stage a work item belongs to. */
export function stageOf(
  state: RunState,
  item: { id: string; stage_position: number },
): Contract.StageInput {
  const entry = state.stages[item.stage_position];
  if (entry === undefined) throw new Error(`work item ${item.id} has no stage`);
  return entry.stage;
}

/**
 * Writes a new run and its stages (its first stage current, nothing on offer yet), with the trace
 * context it was created in when there is one; an `INVALID_ARGUMENT` error for an id that exists.
 * The stage graph is checked by the caller.
 */
export function* insertRun(
  runId: string,
  input: Contract.CreateRunInput,
  now: number,
  traceContext?: TraceContext,
): SqlSteps<void> {
  if ((yield* all("SELECT 1 FROM runs WHERE id = ?", runId)).length > 0) {
    throw new ArgumentError({
      argument: "runId",
      message: `expected the id of a new run, got ${runId}, which exists. Make one with newId("run").`,
    });
  }
  yield* run(
    `INSERT INTO runs (id, goal, constraints, lease_ms, max_attempts, status, current_stage, last_seq, created_at, trace_context)
     VALUES (?, ?, ?, ?, ?, 'active', 0, 0, ?, ?)`,
    runId,
    input.goal,
    JSON.stringify(input.constraints),
    input.lease_ms ?? 60_000,
    input.max_attempts ?? 5,
    now,
    traceContext === undefined ? null : JSON.stringify(traceContext),
  );
  for (const [position, stage] of input.stages.entries()) {
    const kind = stage.kind ?? "task";
    const definition =
      kind === "task" ? { ...stage, kind, items: stage.items ?? 1 } : { ...stage, kind };
    // `status` is no longer read (loadRunState derives it from the run); the column stays for the
    // databases migration 1 created.
    yield* run(
      "INSERT INTO stages (run_id, position, id, definition, status) VALUES (?, ?, ?, ?, 'pending')",
      runId,
      position,
      stage.id,
      JSON.stringify(definition),
    );
  }
}

/** Adds an agent to the run; `AGENT_TAG_TAKEN` when another agent of the run has its tag. */
export function* insertAgent(state: RunState, agent: StoredAgent): SqlSteps<void> {
  const runId = state.run.id;
  const taken = yield* all("SELECT 1 FROM agents WHERE run_id = ? AND tag = ?", runId, agent.tag);
  if (taken.length > 0) {
    throw new DeliveryError({
      code: "AGENT_TAG_TAKEN",
      message: `The run already has an agent tagged "${agent.tag}". Choose another tag.`,
    });
  }
  yield* run(
    "INSERT INTO agents (run_id, id, tag, token_hash, created_at, a2a_endpoint) VALUES (?, ?, ?, ?, ?, ?)",
    runId,
    agent.agent_id,
    agent.tag,
    agent.token_hash,
    state.now,
    agent.a2a === undefined ? null : JSON.stringify(agent.a2a),
  );
}

/** The run's A2A agents, oldest first. */
export function* readA2aAgents(runId: string): SqlSteps<A2aAgent[]> {
  const rows = yield* all<AgentIdentity & { a2a_endpoint: string }>(
    "SELECT id AS agent_id, tag, a2a_endpoint FROM agents WHERE run_id = ? AND a2a_endpoint IS NOT NULL ORDER BY created_at, id",
    runId,
  );
  return rows.map(({ agent_id, tag, a2a_endpoint }) => ({
    agent_id,
    tag,
    a2a: JSON.parse(a2a_endpoint) as A2aEndpoint,
  }));
}

/** The runs not yet completed that have A2A agents (a new instance starts dispatching to them). */
export function* readRunsWithA2aAgents(): SqlSteps<string[]> {
  const rows = yield* all<{ run_id: string }>(
    "SELECT DISTINCT agents.run_id AS run_id FROM agents JOIN runs ON runs.id = agents.run_id WHERE agents.a2a_endpoint IS NOT NULL AND runs.status <> 'completed' ORDER BY agents.run_id",
  );
  return rows.map((row) => row.run_id);
}

/** The agent with that id in the run, or undefined. */
export function* readAgent(runId: string, agentId: string): SqlSteps<StoredAgent | undefined> {
  const [agent] = yield* all<StoredAgent>(
    "SELECT id AS agent_id, tag, token_hash FROM agents WHERE run_id = ? AND id = ?",
    runId,
    agentId,
  );
  return agent === undefined ? undefined : { ...agent };
}
