import { TaskContextError } from "./task-context-error.ts";

/** What a path turned out to be instead of a regular file. */
export type FileKind =
  | "directory"
  | "symbolic-link"
  | "fifo"
  | "character-device"
  | "block-device"
  | "socket"
  | "unknown";

/** A workspace path names something other than a regular file; it is refused without reading it. */
export class NotRegularFileError extends TaskContextError {
  readonly path: string;
  readonly kind: FileKind;

  constructor(path: string, kind: FileKind) {
    super(
      "NOT_A_REGULAR_FILE",
      `Refused ${JSON.stringify(path)}: it is a ${kind.replace("-", " ")}, not a regular file. Workspaces read and write regular files only and do not follow symbolic links.`,
    );
    this.name = "NotRegularFileError";
    this.path = path;
    this.kind = kind;
  }

  static override isInstance(error: unknown): error is NotRegularFileError {
    return TaskContextError.hasCode(error, "NOT_A_REGULAR_FILE");
  }
}
