// How work items and `artifact.created` events point at an artifact: its id, stage, author,
// neutralised title, media type and URI, with a warning when it holds passages that pose as
// instructions.
import type { ArtifactReference, ContentFinding } from "@task-context/protocols";
import { artifactSubject, contentWarning, referenceTitle } from "./content-findings.ts";

/** Where an artifact's content is fetched: `GET /v1/runs/{run_id}/artifacts/{artifact_id}`. */
export function artifactUri(runId: string, artifactId: string): string {
  return `/v1/runs/${runId}/artifacts/${artifactId}`;
}

/**
 * The reference to an artifact that work items and `artifact.created` events carry: its title
 * neutralised, and a `warning` when the artifact holds findings (see content-findings.ts).
 */
export function artifactReferenceOf(
  runId: string,
  artifact: {
    id: string;
    stage_id: string;
    author_tag: string;
    title: string | null;
    media_type: string;
  },
  findings: readonly ContentFinding[],
): ArtifactReference {
  return {
    artifact_id: artifact.id,
    stage_id: artifact.stage_id,
    author_tag: artifact.author_tag,
    ...(artifact.title === null ? {} : { title: referenceTitle(artifact.title) }),
    media_type: artifact.media_type,
    uri: artifactUri(runId, artifact.id),
    ...(findings.length === 0
      ? {}
      : { warning: contentWarning(artifactSubject(artifact.id), findings) }),
  };
}
