/** Every `code` that @task-context/protocols' own errors carry (core's codes come on top). */
export type ProtocolsErrorCode =
  | "CONTEXT_PATH_OUTSIDE_PROJECT"
  | "CONTEXT_TOO_LARGE"
  | "INVALID_CONTEXT_BLOCK"
  | "INVALID_CONTEXT_LIMITS"
  | "INVALID_SUBAGENT_CONTEXT"
  | "INVALID_TASK_ID"
  | "INVALID_YAML"
  | "UNKNOWN_SCHEMA";
