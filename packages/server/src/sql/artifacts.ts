import type { Artifact, ArtifactReference } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { newId } from "../delivery/ids.ts";
import { artifactOf, artifactUri } from "./artifact-view.ts";
import type { Completing } from "./completion-checks.ts";
import { emitEvent } from "./run-events.ts";
import { findRow } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ArtifactRow } from "./sql-rows.ts";

/** Stores the artifact a task item is completed with and announces it; returns its id. */
export function storeArtifact(
  database: SqlDatabase,
  { state, item, stage, agent }: Completing,
  artifact: NonNullable<Contract.CompleteBody["artifact"]>,
): string {
  const id = newId("art");
  const reference: ArtifactReference = {
    artifact_id: id,
    stage_id: stage.id,
    author_tag: agent.tag,
    ...(artifact.title === undefined ? {} : { title: artifact.title }),
    media_type: artifact.media_type,
    uri: artifactUri(state.run.id, id),
  };
  const event = emitEvent(database, state, "artifact.created", {
    work_item_id: item.id,
    artifact: reference,
  });
  database.run(
    `INSERT INTO artifacts (run_id, id, seq, stage_position, stage_id, work_item_id, author_id, author_tag,
       title, media_type, content, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    state.run.id,
    id,
    event.seq,
    item.stage_position,
    stage.id,
    item.id,
    agent.agent_id,
    agent.tag,
    artifact.title ?? null,
    artifact.media_type,
    artifact.content,
    state.now,
  );
  return id;
}

/** A run's artifact with its content; `ARTIFACT_NOT_FOUND` for an id the run does not have. */
export function readArtifact(database: SqlDatabase, runId: string, artifactId: string): Artifact {
  const row = findRow<ArtifactRow>(database, "artifacts", runId, artifactId);
  if (row === undefined) {
    throw new DeliveryError({
      code: "ARTIFACT_NOT_FOUND",
      message: `The run has no artifact ${artifactId}. Take artifact ids from work items' previous_artifacts or from artifact.created events.`,
    });
  }
  return artifactOf(runId, row);
}
