import { TaskContextError } from "./task-context-error.ts";

const marker = "task-context.error.WorkspaceIoError";
const symbol = Symbol.for(marker);

/** Plain words for the operating-system errors a workspace can meet. */
const reasons: Record<string, string> = {
  ENAMETOOLONG: "a name in the path is longer than the file system allows",
  EACCES: "permission denied",
  EPERM: "the operation is not permitted",
  EROFS: "the file system is read-only",
  ENOSPC: "no space is left on the device",
  EDQUOT: "the disk quota is exceeded",
  EMFILE: "too many files are open",
  ENFILE: "too many files are open",
  EIO: "an input/output error occurred",
  EBUSY: "the file is busy",
  EEXIST: "something else already exists at that name",
  ENOTEMPTY: "a directory is in the way",
  EXDEV: "the file would cross file systems",
  NOT_CAPABLE:
    "the runtime's permissions do not allow it (on Deno, grant --allow-read, and --allow-write to write)",
};

/**
 * The operating system refused a workspace read or write. The message names the workspace path and
 * the system's error code, never an absolute path outside the workspace; `systemCode` is the code.
 */
export class WorkspaceIoError extends TaskContextError<"WORKSPACE_IO_ERROR"> {
  protected readonly [symbol] = true;
  override name = "WorkspaceIoError";
  /** The workspace-relative path. */
  readonly path: string;
  /** `"read"` or `"write"`. */
  readonly operation: "read" | "write";
  /** The operating system's error code, e.g. `"ENAMETOOLONG"`, when it gave one. */
  readonly systemCode: string | undefined;

  constructor({
    path,
    operation,
    systemCode,
  }: {
    path: string;
    operation: "read" | "write";
    systemCode: string | undefined;
  }) {
    const reason =
      systemCode === undefined
        ? "the file system reported an error"
        : `${reasons[systemCode] ?? "the file system reported an error"} (${systemCode})`;
    super({
      code: "WORKSPACE_IO_ERROR",
      message: `Could not ${operation} ${JSON.stringify(path)} in the workspace: ${reason}. Check the path and the workspace's permissions and free space.`,
    });
    this.path = path;
    this.operation = operation;
    this.systemCode = systemCode;
  }

  static override isInstance(error: unknown): error is WorkspaceIoError {
    return TaskContextError.hasMarker(error, marker);
  }
}
