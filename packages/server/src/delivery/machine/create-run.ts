// Creating a run: its stages checked, the run and its stages written, `run.created` announced and
// the first stage's items offered.

import type * as Contract from "@task-context/contract";
import type { TraceContext } from "@task-context/protocols";
import { checkStageGraph } from "../stage-graph.ts";
import type { Draft } from "./draft.ts";
import { newRunState, type RunRecord, type RunState, type StageRecord } from "./run-state.ts";
import { startStage } from "./stages.ts";

/** What a run is created with. */
export interface NewRun {
  input: Contract.CreateRunInput;
  traceContext?: TraceContext | undefined;
}

/**
 * The state of a run about to be created (nothing offered yet) and the write that inserts it;
 * `INVALID_STAGES` for a stage graph the service cannot run.
 */
export function newRun(
  runId: string,
  { input, traceContext }: NewRun,
  now: number,
): { state: RunState; run: RunRecord; stages: StageRecord[] } {
  checkStageGraph(input.stages);
  const run: RunRecord = {
    id: runId,
    goal: input.goal,
    constraints: input.constraints,
    lease_ms: input.lease_ms ?? 60_000,
    max_attempts: input.max_attempts ?? 5,
    status: "active",
    current_stage: 0,
    last_seq: 0,
    version: 0,
    created_at: now,
    trace_context: traceContext ?? null,
    canceled_at: null,
    cancel_reason: null,
  };
  const stages = input.stages.map((stage, position): StageRecord => {
    const kind = stage.kind ?? "task";
    const definition =
      kind === "task" ? { ...stage, kind, items: stage.items ?? 1 } : { ...stage, kind };
    return { position, id: stage.id, stage: definition };
  });
  const state = newRunState({ run, stages, items: [], agents: [], artifacts: [], idempotency: [] });
  return { state, run, stages };
}

/** Announces the new run (inserted by `draft`'s first write) and offers its first stage's items. */
export function createRun(draft: Draft, { input }: NewRun): undefined {
  draft.emit("run.created", {
    goal: input.goal,
    stage_ids: input.stages.map((stage) => stage.id),
  });
  startStage(draft, 0);
  return undefined;
}
