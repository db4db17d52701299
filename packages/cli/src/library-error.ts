import { TaskContextError, TaskContextMissingError, WorkspaceIoError } from "@task-context/core";
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
  WORKSPACE_ESCAPE:
    "keep the folder's files as plain files inside it, not links to files elsewhere (copy them in)",
  NOT_A_REGULAR_FILE:
    "make it a plain file inside the folder: workspace files are never symbolic links, FIFOs or devices",
  WORKSPACE_IO_ERROR: "check the folder's permissions",
  UNSUPPORTED_RUNTIME: "run the command on Node 22 or later (the media tools' AI SDK needs it)",
  UNSUPPORTED_AI_SDK: "install AI SDK 7 beside the CLI: npm install ai@7 (on Node 22 or later)",
  CONTEXT_VIEW_EMPTY:
    "name headings CONTEXT.md has (the message lists them), or write those sections into CONTEXT.md",
};

/** The hint for a CONTEXT.md that is there but not a plain file. */
const NOT_A_PLAIN_CONTEXT_MD =
  "make CONTEXT.md a plain file inside the folder, not a symbolic link, FIFO or device (`task-context init --force` writes the template)";

/** Codes of a workspace file that could not be read at all: the input is at fault (exit 2). */
const UNREADABLE = new Set(["FILE_NOT_FOUND", "NOT_A_REGULAR_FILE", "WORKSPACE_ESCAPE"]);

/** Whether the library refused to read a workspace file, rather than read it and found it wrong. */
function couldNotRead(error: TaskContextError): boolean {
  if (TaskContextMissingError.isInstance(error)) {
    return error.reason === "not-found" || error.reason === "not-a-regular-file";
  }
  if (WorkspaceIoError.isInstance(error)) return error.operation === "read";
  return UNREADABLE.has(error.code);
}

/**
 * A library's {@link TaskContextError} as the CLI's one-line error with a hint; anything else is
 * returned unchanged. Exit 2 when a workspace file could not be read (missing, not a plain file,
 * out of the folder) and for an id given on the command line; exit 1 when the input was read and
 * found wrong.
 */
export function explainLibraryError(error: unknown): unknown {
  if (CliError.isInstance(error) || !TaskContextError.isInstance(error)) return error;
  const unreadable = couldNotRead(error);
  const notPlain =
    TaskContextMissingError.isInstance(error) && error.reason === "not-a-regular-file";
  return new CliError({
    code: unreadable ? "CLI_UNREADABLE_INPUT" : "CLI_USAGE",
    exitCode: unreadable || error.code === "INVALID_TASK_ID" ? 2 : 1,
    message: error.message.replace(/\.?\s*\n\s*/g, ". ").replace(/\.$/, ""),
    hint: notPlain
      ? NOT_A_PLAIN_CONTEXT_MD
      : (HINTS[error.code] ?? "see docs/errors-and-warnings.md for this error's code"),
    cause: error,
  });
}
