import { ArgumentError } from "./errors/argument-error.ts";
import { loadTaskContextFrom } from "./load-task-context-from.ts";
import type { LoadTaskContextOptions, TaskContext } from "./task-context.ts";
import type { Workspace } from "./workspace.ts";

/**
 * Loads CONTEXT.md from the workspace root, bounded to `maxChars` (default 10 000) UTF-16 units
 * and optionally a token budget, reading only a bounded prefix of the file whatever its size.
 * A missing, empty or non-regular file throws `TaskContextMissingError` (unless `required: false`);
 * a truncated one carries a `warning` to show the agent.
 *
 * On Node, Bun and Deno `workspace` may also be a directory path; elsewhere pass a
 * {@link Workspace} such as `memoryWorkspace()`.
 *
 * @example
 * ```ts source="../examples/load-task-context.ts#loadTaskContext"
 * const inMemory = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "Building Lumen." }));
 * injectTaskContext("Describe this screenshot.", inMemory);
 * // "[Task Context]\nBuilding Lumen.\n\n[Request]\nDescribe this screenshot."
 * ```
 */
export async function loadTaskContext(
  workspace: string | Workspace,
  options?: LoadTaskContextOptions,
): Promise<TaskContext> {
  if (typeof workspace === "string") {
    throw new ArgumentError({
      argument: "workspace",
      message:
        "a directory path needs a file system, which this runtime does not offer through task-context. Pass a Workspace, such as memoryWorkspace().",
    });
  }
  return loadTaskContextFrom(workspace, options);
}
