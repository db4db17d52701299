// The findings of stored artifacts that pose as instructions: scanned on read (no column keeps
// them) and remembered (an artifact never changes once stored).
import type { Artifact, ContentFinding } from "@task-context/protocols";
import { artifactFindings, artifactSubject, contentWarning } from "../delivery/content-findings.ts";
import type { ArtifactRow } from "./schema.ts";
import { all, type SqlSteps } from "./sql-steps.ts";

/** Artifacts whose findings are remembered, the most recently scanned. */
const REMEMBERED_ARTIFACTS = 10_000;
const remembered = new Map<string, ContentFinding[]>();

function remember(key: string, findings: ContentFinding[]): ContentFinding[] {
  if (remembered.size >= REMEMBERED_ARTIFACTS) {
    remembered.delete(remembered.keys().next().value as string);
  }
  remembered.set(key, findings);
  return findings;
}

/** Remembers the findings of a new artifact (scanned as it was stored). */
export function rememberFindings(
  runId: string,
  artifactId: string,
  findings: readonly ContentFinding[],
): void {
  remember(`${runId}/${artifactId}`, [...findings]);
}

/** The findings in an artifact whose title and content are at hand (and remembers them). */
export function scannedArtifactFindings(
  runId: string,
  artifact: Pick<ArtifactRow, "id" | "title" | "content">,
): ContentFinding[] {
  const key = `${runId}/${artifact.id}`;
  return remembered.get(key) ?? remember(key, artifactFindings(artifact));
}

/**
 * The findings in a stored artifact without its content at hand: remembered, or its content read
 * and scanned.
 */
export function* storedArtifactFindings(
  runId: string,
  artifact: Pick<ArtifactRow, "id" | "title">,
): SqlSteps<ContentFinding[]> {
  const known = remembered.get(`${runId}/${artifact.id}`);
  if (known !== undefined) return known;
  const [row] = yield* all<{ content: string }>(
    "SELECT content FROM artifacts WHERE run_id = ? AND id = ?",
    runId,
    artifact.id,
  );
  return scannedArtifactFindings(runId, { ...artifact, content: row?.content ?? "" });
}

/** An artifact as `GET` shows it: exactly as stored, with `findings` and `warning` when it has any. */
export function withFindings(artifact: Artifact, findings: readonly ContentFinding[]): Artifact {
  return findings.length === 0
    ? artifact
    : {
        ...artifact,
        findings: [...findings],
        warning: contentWarning(artifactSubject(artifact.id), findings),
      };
}
