import type { ContextView, SecretPolicy, Tokenizer, Workspace } from "@task-context/core";
import type { ContextChanges } from "./context-changes.ts";

/** Options of {@link createTaskContextServer}. */
export interface TaskContextServerOptions {
  /**
   * Where CONTEXT.md, `.sage/context/` and `docs/` are read from: `nodeWorkspace(directory)` from
   * `@task-context/core/node` for a directory on disk (symbolic links out of it, FIFOs and huge
   * files are refused as core refuses them), `memoryWorkspace(files)` anywhere. Nothing is
   * written: the server is read-only.
   */
  workspace: Workspace;
  /** Most UTF-16 units of CONTEXT.md delivered (default 10 000, as `loadTaskContext`). */
  maxChars?: number | undefined;
  /** Most tokens of CONTEXT.md delivered, counted with `tokenizer` (required with it). */
  maxTokens?: number | undefined;
  /** Counts tokens for `maxTokens`. */
  tokenizer?: Tokenizer | undefined;
  /**
   * What to do with secrets in CONTEXT.md (as `loadTaskContext`): `"redact"` (the default) delivers
   * `[redacted: <kind>]` in their place with a warning, `"refuse"` makes every delivery a tool
   * error with code `SECRET_IN_CONTEXT`, `"allow"` delivers CONTEXT.md as written.
   */
  secrets?: SecretPolicy | undefined;
  /**
   * The view of CONTEXT.md delivered where a request names none — the CONTEXT.md resource,
   * `get_task_context` and `inject_task_context` without `view`, `with_task_context` without view
   * arguments — such as `CONTEXT_VIEW_PRESETS.media` for a server an image agent uses. A request's
   * own view replaces it. Each delivery then says so (`view`, `_meta["task-context/view"]`), and
   * one the view selects nothing of is refused with `CONTEXT_VIEW_EMPTY`. Default: the whole file.
   */
  view?: ContextView | undefined;
  /**
   * The absolute path of the project root, written as `project.path` of the Context Protocol v1
   * block. Without it the server has no context-block resource: a block needs an absolute path.
   */
  projectPath?: string | undefined;
  /**
   * Tells the server when CONTEXT.md changed, so that subscribed clients get
   * `notifications/resources/updated`. Without it the server does not offer subscriptions.
   */
  changes?: ContextChanges | undefined;
  /**
   * Advertise `resources: { subscribe: true }` without `changes`, on a 2026-07-28 instance
   * (`era: "modern"`) served per request (`createMcpHandler`): the handler's notifier delivers
   * the updates on `subscriptions/listen` streams
   * (`handler.notify.resourceUpdated(CONTEXT_MD_URI)` when the file changes). Ignored on a
   * 2025-era instance: without `changes` it has no `resources/subscribe` to serve, so it never
   * advertises one (`createTaskContextHttpHandler` of `@task-context/mcp/http` serves both eras).
   */
  subscribable?: boolean | undefined;
  /**
   * The protocol era of the connection this instance serves (the `era` of the SDK's
   * `McpRequestContext`). `"legacy"` (2025-era, the default): updates go only to a connection that
   * called `resources/subscribe`. `"modern"` (2026-07-28): the entry (`serveStdio`) routes updates
   * onto the client's `subscriptions/listen` streams, so the instance announces every change.
   */
  era?: "legacy" | "modern" | undefined;
  /**
   * Lists the task ids that have a Sage document under `.sage/context/`, for `resources/list`.
   * A workspace cannot list files; without it the documents are still readable by URI
   * (`task-context://workspace/sage/{taskId}`), only not listed.
   */
  listSageTaskIds?: (() => Promise<readonly string[]>) | undefined;
}
