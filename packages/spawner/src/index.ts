/** Spec 002's output format with its wire names: what a subagent returns. */
export type { SubagentOutput } from "@task-context/protocols/sage";
export {
  type ChildProcessRunnerOptions,
  childProcessRunner,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_MAX_OUTPUT_BYTES,
} from "./child-process-runner.ts";
export { ContextReadOnlyError } from "./errors/context-read-only-error.ts";
export type { SpawnerErrorCode } from "./errors/spawner-error-code.ts";
export { SubagentProcessError } from "./errors/subagent-process-error.ts";
export { SubagentWorkspaceExistsError } from "./errors/subagent-workspace-exists-error.ts";
export { functionRunner, type SubagentFunction } from "./function-runner.ts";
export { CONTEXT_COPY_MODE } from "./inherited-context.ts";
export { protectInheritedContext } from "./protect-inherited-context.ts";
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
  type SpawnOptions,
  type SubagentSpawnEvent,
} from "./spawn-options.ts";
export { spawnSubagents } from "./spawn-subagents.ts";
export type { ContextIntegrity, SubagentResult, SubagentStatus } from "./subagent-result.ts";
export type {
  SubagentInvocation,
  SubagentRunner,
  SubagentRunnerOutput,
} from "./subagent-runner.ts";
export type { SubagentTask, SubagentType } from "./subagent-task.ts";
