import { type ArtifactReference, runContextSha256, type WorkItem } from "@task-context/protocols";
import { artifactUri } from "./artifact-view.ts";
import { type RunState, stageOf } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ArtifactRow, ItemRow } from "./sql-rows.ts";

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
    goal: run.goal,
    constraints: JSON.parse(run.constraints) as string[],
    stage_context: {
      stage_description: stage.stage_description,
      expected_output: stage.expected_output,
      available_skills: stage.available_skills,
      ...(stage.background === undefined ? {} : { background: stage.background }),
    },
    previous_artifacts: previous,
    available_skills: stage.available_skills,
    // The attempt the current (or last) lease holds; on offer, the attempt a claim starts.
    attempt: item.status === "offered" ? item.attempt + 1 : Math.max(1, item.attempt),
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

/**
 * A work item with its receipt: `context_sha256`, the hash of the run context (goal, constraints,
 * stage context) it was built from, by protocols' `runContextSha256` — the definition every
 * reader can recompute.
 */
export async function withContextSha256(item: WorkItem): Promise<WorkItem> {
  return { ...item, context_sha256: await runContextSha256(item) };
}
