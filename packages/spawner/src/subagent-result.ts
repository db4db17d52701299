import type { ValidationIssue } from "@task-context/protocols";

/**
 * How a subagent ended: `success`, `failure` or `blocked` as the subagent reported them (or
 * `failure` when it could not be set up or answered unusably), or `timeout` / `aborted` when the
 * spawner stopped it.
 */
export type SubagentStatus = "success" | "failure" | "blocked" | "timeout" | "aborted";

/** Which view of the parent's CONTEXT.md a subagent inherited: see {@link SubagentResult.view}. */
export interface SubagentContextView {
  name: string;
  sections: string[];
  sha256: string;
  fileSha256: string;
}

/** Whether the subagent's copy of CONTEXT.md still held what the parent gave it after the run. */
export type ContextIntegrity = "intact" | "modified";

/**
 * What the parent gets back for each subagent: the subagent output format (`status`, `summary`,
 * `files-modified`, `notes`, `recommended-action`, here in camelCase) plus what the spawner
 * knows — the id, how CONTEXT.md fared, how long the run took and where it ran.
 *
 * See https://github.com/task-context/task-context/blob/main/docs/subagents.md#results
 */
export interface SubagentResult {
  /** The task's id. */
  id: string;
  /** How the subagent ended. */
  status: SubagentStatus;
  /**
   * The subagent's summary, or what went wrong when the spawner decided the status. Like
   * `notes` and `recommendedAction`, it is earlier work: text posing as instructions or as a
   * task-context format is neutralised (`<system-reminder>` → `‹system-reminder›`), and
   * `warning` says so.
   */
  summary: string;
  /** The files the subagent reports it changed (empty when it reported nothing). */
  filesModified: string[];
  /** The subagent's notes, followed by the tail of its stderr for a child process. */
  notes?: string;
  /** The subagent's suggested next step. */
  recommendedAction?: string;
  /**
   * Everything the parent should see, absent when there is nothing to say: the CONTEXT.md
   * truncation warning, context items that were shortened to fit the Sage limits, a hook that
   * threw, a modified context copy, a stale receipt (the parent's CONTEXT.md changed during the
   * run, or the subagent quoted another context's hash), and last, passages of the subagent's
   * summary, notes, recommended action or output issues that posed as instructions or as a
   * task-context format and were neutralised (core's `untrustedContentWarning`). One or more
   * sentences joined by a single space.
   */
  warning?: string;
  /**
   * `"modified"` when the subagent's copy of CONTEXT.md was changed, replaced or deleted during
   * the run (then `warning` says how); `"intact"` otherwise, also for a subagent that never
   * started.
   */
  contextIntegrity: ContextIntegrity;
  /**
   * The receipt of what the subagent was given: the SHA-256 of the CONTEXT.md content copied into
   * its directory (the parent's `TaskContext.sha256`, the same for every subagent of one spawn
   * that has no view; with a view, the view's hash).
   * A subagent may quote it back as `context-sha256` in its output; when that, or this hash, is
   * not the parent's CONTEXT.md as it is after the run, `warning` says the context was stale.
   */
  contextSha256: string;
  /**
   * The view of the parent's CONTEXT.md the subagent inherited, when its task had one: the
   * view's name, the headings delivered, `sha256` (the view's text, its copy of CONTEXT.md: the
   * same as `contextSha256`) and `fileSha256` (what the whole file delivers).
   */
  view?: SubagentContextView;
  /** Milliseconds from the subagent's setup to its result; 0 when it never started. */
  durationMs: number;
  /**
   * The subagent's directory, `{workspacesRoot}/{id}` as an absolute path. It exists once the
   * spawner created it: not for a subagent `aborted` before it started, nor for one whose Sage
   * context did not fit or whose directory could not be created.
   */
  directory: string;
  /** Why the output was refused, one JSON Pointer and message per problem (`status: "failure"`). */
  issues?: ValidationIssue[];
}
