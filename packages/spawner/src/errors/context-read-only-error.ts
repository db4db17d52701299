import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.ContextReadOnlyError";
const symbol = Symbol.for(marker);

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
export class ContextReadOnlyError extends TaskContextError<"CONTEXT_READ_ONLY"> {
  protected readonly [symbol] = true;
  override name = "ContextReadOnlyError";
  /** The path the write was addressed to, as given. */
  readonly path: string;

  constructor({ path }: { path: string }) {
    super({
      code: "CONTEXT_READ_ONLY",
      message: `Refused to write ${JSON.stringify(path)}: CONTEXT.md is read-only in a subagent workspace because it is inherited from the parent agent. Write your notes to another file, and say in your result's notes what should change in CONTEXT.md so the parent can update it.`,
    });
    this.path = path;
  }

  static override isInstance(error: unknown): error is ContextReadOnlyError {
    return TaskContextError.hasMarker(error, marker);
  }
}
