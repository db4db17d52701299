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

/**
 * The URI template of a view of CONTEXT.md: only the sections a preset (`name=media`) or the
 * headings given (`include=…&include=…`, `exclude=…`) select, optionally with `max_chars`. The
 * parameters may come in any order, each list parameter once per heading.
 */
export const CONTEXT_MD_VIEW_URI_TEMPLATE =
  "task-context://workspace/CONTEXT.md/view{?name,include*,exclude*,max_chars}";

/** The URI of one view of CONTEXT.md: `contextMdViewUri({ name: "media" })`. */
export function contextMdViewUri(view: {
  name?: string;
  include?: readonly string[];
  exclude?: readonly string[];
  maxChars?: number;
}): string {
  const query = [
    ...(view.name === undefined ? [] : [["name", view.name]]),
    ...(view.include ?? []).map((heading) => ["include", heading]),
    ...(view.exclude ?? []).map((heading) => ["exclude", heading]),
    ...(view.maxChars === undefined ? [] : [["max_chars", String(view.maxChars)]]),
  ].map(([key, value]) => `${key}=${encodeURIComponent(value as string)}`);
  const base = CONTEXT_MD_VIEW_URI_TEMPLATE.slice(0, CONTEXT_MD_VIEW_URI_TEMPLATE.indexOf("{"));
  return query.length === 0 ? base : `${base}?${query.join("&")}`;
}
