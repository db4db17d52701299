import { sha256Hex } from "@task-context/core/internal";
import type { ArtifactReference, WorkItem } from "@task-context/protocols";
import { type RunContext, renderRunContext } from "@task-context/protocols/work-item";
import { artifactUri } from "./artifact-view.ts";
import { type RunState, stageOf } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ArtifactRow, ItemRow } from "./sql-rows.ts";

/** The attempt the current (or last) lease holds; on offer, the attempt a claim starts. */
export function contractAttempt(item: ItemRow): number {
  return item.status === "offered" ? item.attempt + 1 : Math.max(1, item.attempt);
}

/** What a work item's receipt is the hash of: the run's goal and constraints, its stage's context. */
export function runContextOf(state: RunState, item: ItemRow): RunContext {
  const stage = stageOf(state, item);
  return {
    goal: state.run.goal,
    constraints: JSON.parse(state.run.constraints) as string[],
    stage_context: {
      stage_description: stage.stage_description,
      expected_output: stage.expected_output,
      available_skills: stage.available_skills,
      ...(stage.background === undefined ? {} : { background: stage.background }),
    },
  };
}

/** A work item as the contract shows it, with the artifacts of the stages before its own. */
export function workItemView(database: SqlDatabase, state: RunState, item: ItemRow): WorkItem {
  const { run } = state;
  const stage = stageOf(state, item);
  const previous = database
    .all<ArtifactRow>(
      "SELECT id, stage_id, author_tag, title, media_type FROM artifacts WHERE run_id = ? AND stage_position < ? ORDER BY stage_position, seq",
      run.id,
      item.stage_position,
    )
    .map(
      (artifact): ArtifactReference => ({
        artifact_id: artifact.id,
        stage_id: artifact.stage_id,
        author_tag: artifact.author_tag,
        ...(artifact.title === null ? {} : { title: artifact.title }),
        media_type: artifact.media_type,
        uri: artifactUri(run.id, artifact.id),
      }),
    );
  const fields = {
    id: item.id,
    run_id: run.id,
    stage_id: stage.id,
    ...runContextOf(state, item),
    previous_artifacts: previous,
    available_skills: stage.available_skills,
    attempt: contractAttempt(item),
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

/** The receipt of a run context: `(item) => its context_sha256`. */
export type ContextReceipts = (item: RunContext) => Promise<string>;

/**
 * Receipts of run contexts by protocols' `runContextSha256` (`sha256` of `renderRunContext`) — the
 * definition every reader can recompute — remembered by their canonical text for one read, so
 * that the items of a stage, which share one context, are hashed once.
 */
export function contextReceipts(): ContextReceipts {
  const known = new Map<string, Promise<string>>();
  return (item) => {
    const text = renderRunContext(item);
    let receipt = known.get(text);
    if (receipt === undefined) {
      receipt = sha256Hex(text);
      known.set(text, receipt);
    }
    return receipt;
  };
}

/**
 * A work item with its receipt: `context_sha256`, the hash of the run context (goal, constraints,
 * stage context) it was built from.
 */
export async function withContextSha256(
  item: WorkItem,
  receipts: ContextReceipts = contextReceipts(),
): Promise<WorkItem> {
  return { ...item, context_sha256: await receipts(item) };
}
