// Telling the media tools' errors apart from other task-context errors.
import { TaskContextError } from "@task-context/core";
import { MediaToolError, type MediaToolErrorCode } from "@task-context/media-tools";

//#region explainErrors
function isRetryable(code: MediaToolErrorCode): boolean {
  return code === "PROVIDER_ERROR" || code === "TIMEOUT";
}

function explain(error: unknown): string {
  if (MediaToolError.isInstance(error))
    return `${error.code}${isRetryable(error.code) ? " (try again)" : ""}: ${error.message}`;
  if (TaskContextError.isInstance(error)) return `${error.code}: ${error.message}`;
  return String(error);
}
//#endregion
