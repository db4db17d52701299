import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.ContextReadOnlyError";
const symbol = Symbol.for(marker);

/**
 * A subagent tried to write CONTEXT.md. The file is inherited from the parent agent and is
 * read-only in a subagent workspace; only the parent changes it. Thrown by the `workspace` every
 * runner receives (`SubagentInvocation.workspace`).
 *
 * @example
 * ```ts source="../../examples/read-only-context.ts#contextReadOnlyError"
 * const runner = functionRunner(async ({ workspace }) => {
 *   try {
 *     await workspace.writeFile("CONTEXT.md", "my own context");
 *   } catch (error) {
 *     if (!ContextReadOnlyError.isInstance(error)) throw error;
 *     await workspace.writeFile("notes.md", "CONTEXT.md should mention the new brand colour.");
 *   }
 *   return { status: "success", summary: "Left a note.", "files-modified": ["notes.md"] };
 * });
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
