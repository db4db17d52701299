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

const marker = "task-context.error.NotRegularFileError";
const symbol = Symbol.for(marker);

/** A workspace path names something other than a regular file; it is refused without reading it. */
export class NotRegularFileError extends TaskContextError<"NOT_A_REGULAR_FILE"> {
  protected readonly [symbol] = true;
  override name = "NotRegularFileError";
  /** The workspace-relative path. */
  readonly path: string;
  /** What the path names instead. */
  readonly kind: FileKind;

  constructor({ path, kind }: { path: string; kind: FileKind }) {
    super({
      code: "NOT_A_REGULAR_FILE",
      message: `Refused ${JSON.stringify(path)}: it is a ${kind.replace("-", " ")}, not a regular file. Workspaces read and write regular files only and do not follow symbolic links.`,
    });
    this.path = path;
    this.kind = kind;
  }

  static override isInstance(error: unknown): error is NotRegularFileError {
    return TaskContextError.hasMarker(error, marker);
  }
}
