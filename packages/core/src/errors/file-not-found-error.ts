import { TaskContextError } from "./task-context-error.ts";

const marker = "task-context.error.FileNotFoundError";
const symbol = Symbol.for(marker);

/** No file at this workspace path. */
export class FileNotFoundError extends TaskContextError<"FILE_NOT_FOUND"> {
  protected readonly [symbol] = true;
  override name = "FileNotFoundError";
  /** The workspace-relative path. */
  readonly path: string;

  constructor({ path, cause }: { path: string; cause?: unknown }) {
    super({
      code: "FILE_NOT_FOUND",
      message: `No file at ${JSON.stringify(path)} in the workspace.`,
      cause,
    });
    this.path = path;
  }

  static override isInstance(error: unknown): error is FileNotFoundError {
    return TaskContextError.hasMarker(error, marker);
  }
}
