/**
 * The URI of the CONTEXT.md resource: the workspace's task context as loaded (bounded, trimmed),
 * with its hash and truncation warning in the content's `_meta`.
 */
export const CONTEXT_MD_URI = "task-context://workspace/CONTEXT.md";

/**
 * The URI template of the Sage documents: `.sage/context/{taskId}.xml` of the workspace, one
 * `<subagent-context>` document per task.
 */
export const SAGE_CONTEXT_URI_TEMPLATE = "task-context://workspace/sage/{taskId}";

/**
 * The URI of the workspace's Context Protocol v1 block, built from `docs/project.json` and
 * `docs/CONVENTIONS.md` (spec 004's fallback for a prompt without a `<context>` block).
 */
export const CONTEXT_BLOCK_URI = "task-context://workspace/context-block";

/** The URI of the Sage document of one task. */
export function sageContextUri(taskId: string): string {
  return SAGE_CONTEXT_URI_TEMPLATE.replace("{taskId}", encodeURIComponent(taskId));
}
