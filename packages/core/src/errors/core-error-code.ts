/** Every `code` that @task-context/core's errors carry. */
export type CoreErrorCode =
  | "TASK_CONTEXT_MISSING"
  | "INVALID_WORKSPACE_PATH"
  | "WORKSPACE_ESCAPE"
  | "WORKSPACE_IO_ERROR"
  | "NOT_A_REGULAR_FILE"
  | "FILE_NOT_FOUND"
  | "INVALID_ARGUMENT"
  | "TOKENIZER_UNAVAILABLE"
  | "SECRET_IN_CONTEXT"
  | "CONTEXT_VIEW_EMPTY";
