import { TaskContextError } from "./task-context-error.ts";

/** No file at this workspace path. */
export class FileNotFoundError extends TaskContextError {
  readonly path: string;

  constructor(path: string, options?: { cause?: unknown }) {
    super("FILE_NOT_FOUND", `No file at ${JSON.stringify(path)} in the workspace.`, options);
    this.name = "FileNotFoundError";
    this.path = path;
  }

  static override isInstance(error: unknown): error is FileNotFoundError {
    return TaskContextError.hasCode(error, "FILE_NOT_FOUND");
  }
}
