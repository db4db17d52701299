// The contract's views of a run's state: the run with its stages' counts, a work item with the
// earlier artifacts it builds on and its run context. Pure: what needs an artifact's content
// (whether it poses as instructions) is asked of the caller.

import type * as Contract from "@task-context/contract";
import type { ArtifactReference, TraceContext, WorkItem } from "@task-context/protocols";
import type { RunContext } from "@task-context/protocols/work-item";
import { iso } from "./machine/draft.ts";
import {
  type ArtifactRecord,
  type ItemRecord,
  noItems,
  type RunRecord,
  type RunState,
  stageOf,
  stageStatus,
} from "./machine/run-state.ts";
import { shownAttempt } from "./rules.ts";

/** The run as the contract shows it: its stages with their items counted by status. */
export function runViewOf(state: RunState): Contract.RunView {
  const { run } = state;
  return {
    run_id: run.id,
    status: run.status,
    ...(run.canceled_at === null ? {} : { canceled_at: iso(run.canceled_at) }),
    ...(run.cancel_reason === null ? {} : { cancel_reason: run.cancel_reason }),
    goal: run.goal,
    constraints: [...run.constraints],
    lease_ms: run.lease_ms,
    max_attempts: run.max_attempts,
    created_at: iso(run.created_at),
    stages: state.stages.map(({ position, stage }) => {
      const counts = state.counts[position] ?? noItems();
      const total = counts.offered + counts.leased + counts.completed + counts.dead_lettered;
      return {
        ...stage,
        kind: stage.kind ?? "task",
        status: stageStatus(run, position),
        counts: { total, ...counts },
      };
    }),
  };
}

/** What a work item's receipt is the hash of: the run's goal and constraints, its stage's context. */
export function runContextOf(
  state: Pick<RunState, "run" | "stages">,
  item: Pick<ItemRecord, "id" | "stage_position">,
): RunContext {
  const { stage } = stageOf(state, item);
  return {
    goal: state.run.goal,
    constraints: [...state.run.constraints],
    stage_context: {
      stage_description: stage.stage_description,
      expected_output: stage.expected_output,
      available_skills: stage.available_skills,
      ...(stage.background === undefined ? {} : { background: stage.background }),
    },
  };
}

/** The trace context a run was created in, as its work items carry it; none when it had none. */
export function traceContextOf(run: RunRecord): { trace_context?: TraceContext } {
  return run.trace_context === null ? {} : { trace_context: run.trace_context };
}

/** The artifacts of the stages before `position`, by stage then creation. */
export function earlierArtifacts(state: RunState, position: number): ArtifactRecord[] {
  if (position === 0) return [];
  return state.artifacts
    .filter((artifact) => artifact.stage_position < position)
    .sort((left, right) => left.stage_position - right.stage_position || left.seq - right.seq);
}

/**
 * A work item as the contract shows it (before its `context_sha256`), with `previous`, the
 * references to the artifacts of the stages before its own, and the trace context of its run.
 */
export function workItemViewOf(
  state: RunState,
  item: ItemRecord,
  previous: ArtifactReference[],
): WorkItem {
  const { run } = state;
  const { id: stageId, stage } = stageOf(state, item);
  const fields = {
    id: item.id,
    run_id: run.id,
    stage_id: stageId,
    ...runContextOf(state, item),
    previous_artifacts: previous,
    available_skills: stage.available_skills,
    attempt: shownAttempt(item),
    ...traceContextOf(run),
  };
  if (item.kind === "task") return { kind: "task", ...fields };
  return {
    kind: "review",
    ...fields,
    review_context: {
      target_artifact_id: item.target_artifact_id ?? "",
      target_author_tag: item.target_author_tag ?? "",
      review_criteria: stage.review_criteria ?? [],
    },
  };
}
