/** Every `code` that @task-context/spawner's own errors carry (core's and protocols' come on top). */
export type SpawnerErrorCode =
  | "CONTEXT_READ_ONLY"
  | "SUBAGENT_PROCESS_FAILED"
  | "SUBAGENT_SETUP_FAILED"
  | "SUBAGENT_WORKSPACE_EXISTS";
