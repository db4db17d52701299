import type { Artifact } from "@task-context/protocols";
import { type ArtifactRow, iso } from "./sql-rows.ts";

/** Where an artifact's content is fetched: `GET /v1/runs/{run_id}/artifacts/{artifact_id}`. */
export function artifactUri(runId: string, artifactId: string): string {
  return `/v1/runs/${runId}/artifacts/${artifactId}`;
}

/** An artifact as the contract shows it. */
export function artifactOf(runId: string, row: ArtifactRow): Artifact {
  return {
    id: row.id,
    run_id: runId,
    stage_id: row.stage_id,
    work_item_id: row.work_item_id,
    author_tag: row.author_tag,
    ...(row.title === null ? {} : { title: row.title }),
    media_type: row.media_type,
    content: row.content,
    created_at: iso(row.created_at),
  };
}
