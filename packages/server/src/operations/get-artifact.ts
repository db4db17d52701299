import { operations } from "@task-context/contract";
import { fenceUntrustedText } from "@task-context/core";
import type { Artifact } from "@task-context/protocols";
import { referenceTitle } from "../delivery/content-findings.ts";
import { defineHandler } from "../execution/operation-handler.ts";

/**
 * What a model reads of an artifact: its fields as JSON (the title neutralised, the content left
 * out), then its content fenced as data by core's `fenceUntrustedText` — every line prefixed,
 * passages that pose as instructions neutralised. `structuredContent` keeps it exactly as stored.
 */
export function artifactTexts(read: Artifact): string[] {
  const { content, ...fields } = read;
  const shown =
    fields.title === undefined ? fields : { ...fields, title: referenceTitle(fields.title) };
  const source = `artifact ${read.id} by ${read.author_tag}`;
  return [JSON.stringify(shown), fenceUntrustedText({ source, text: content }).text];
}

/** `GET /v1/runs/{run_id}/artifacts/{artifact_id}` (the `get_artifact` tool): an artifact. */
export const getArtifact = defineHandler(operations.getArtifact, {
  handle: async ({ path }, { service }) => service.store.artifact(path.run_id, path.artifact_id),
  toolText: (answer) => artifactTexts(answer as Artifact),
});
