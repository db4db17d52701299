import { TaskContextError } from "@task-context/core";
import { CliError } from "./cli-error.ts";

/** What to do about each library error code the CLI can meet. */
const HINTS: Record<string, string> = {
  TASK_CONTEXT_MISSING: "write one with `task-context init`",
  INVALID_TASK_ID: "use letters, digits, '.', '_' and '-', starting with a letter or digit",
  CONTEXT_TOO_LARGE:
    "shorten the task's context items, or raise max_total in .sage/config/context-limits.yaml",
  INVALID_CONTEXT_LIMITS:
    "fix .sage/config/context-limits.yaml (`task-context validate .sage/config/context-limits.yaml` shows where)",
  INVALID_ARGUMENT: "check the input file against the shape in docs/cli.md",
  WORKSPACE_ESCAPE: "keep every path inside the workspace folder",
};

/**
 * A library's {@link TaskContextError} as the CLI's one-line error with a hint (exit 1: the input
 * was read and found wrong); anything else is returned unchanged.
 */
export function explainLibraryError(error: unknown): unknown {
  if (CliError.isInstance(error) || !TaskContextError.isInstance(error)) return error;
  return new CliError({
    code: "CLI_USAGE",
    // An id given on the command line is a usage error; everything else was read and found wrong.
    exitCode: error.code === "INVALID_TASK_ID" ? 2 : 1,
    message: error.message.replace(/\.?\s*\n\s*/g, ". ").replace(/\.$/, ""),
    hint: HINTS[error.code] ?? "see docs/errors-and-warnings.md for this error's code",
    cause: error,
  });
}
