import { TaskContextError } from "@task-context/core";

/**
 * A subagent tried to write CONTEXT.md. The file is inherited from the parent agent and is
 * read-only in a subagent workspace (spec 000, "Subagent Context Inheritance"); only the parent
 * changes it. Thrown by the workspaces that {@link protectInheritedContext} wraps.
 *
 * @example
 * ```ts
 * try {
 *   await workspace.writeFile("CONTEXT.md", "my own context");
 * } catch (error) {
 *   if (ContextReadOnlyError.isInstance(error)) console.error(error.message);
 * }
 * ```
 */
export class ContextReadOnlyError extends TaskContextError {
  /** The path the write was addressed to, as given. */
  readonly path: string;

  constructor(path: string) {
    super(
      "CONTEXT_READ_ONLY",
      `Refused to write ${JSON.stringify(path)}: CONTEXT.md is read-only in a subagent workspace because it is inherited from the parent agent. Write your notes to another file, and say in your result's notes what should change in CONTEXT.md so the parent can update it.`,
    );
    this.name = "ContextReadOnlyError";
    this.path = path;
  }

  static override isInstance(error: unknown): error is ContextReadOnlyError {
    return TaskContextError.hasCode(error, "CONTEXT_READ_ONLY");
  }
}
