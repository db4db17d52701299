import { requireText } from "./arguments.ts";
import { loadTaskContextFrom } from "./load-task-context-from.ts";
import { nodeWorkspace } from "./node-workspace.ts";
import type { LoadTaskContextOptions, TaskContext } from "./task-context.ts";
import type { Workspace } from "./workspace.ts";

/**
 * Loads CONTEXT.md from the workspace root, bounded to `maxChars` (default 10 000) UTF-16 units
 * and optionally a token budget, reading only a bounded prefix of the file whatever its size.
 * A missing, empty or non-regular file throws `TaskContextMissingError` (unless `required: false`);
 * a truncated one carries a `warning` to show the agent.
 *
 * `workspace` is a {@link Workspace} or a directory path (opened with `nodeWorkspace`).
 *
 * @example
 * ```ts source="../examples/load-task-context.ts#loadTaskContextFromDirectory"
 * const context = await loadTaskContext("."); // Node, Bun, Deno: a directory, here the current one
 * const prompt = injectTaskContext("What does the header of this screenshot say?", context);
 * // "[Task Context]\n{CONTEXT.md}\n\n[Request]\nWhat does the header of this screenshot say?"
 * if (context.warning) console.warn(context.warning); // e.g. truncated from 12000 to 10000 characters
 * ```
 */
export async function loadTaskContext(
  workspace: string | Workspace,
  options?: LoadTaskContextOptions,
): Promise<TaskContext> {
  if (typeof workspace !== "string") return loadTaskContextFrom(workspace, options);
  requireText("workspace", workspace, "a Workspace or a directory path (a non-empty string)");
  return loadTaskContextFrom(nodeWorkspace(workspace), options);
}
