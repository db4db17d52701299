/**
 * Spawn subagents that inherit the parent agent's CONTEXT.md read-only, each in its own directory
 * with a bounded Sage context file and, optionally, a Context Protocol v1 block at the start of its
 * prompt. See https://github.com/task-context/task-context/blob/main/docs/subagents.md
 *
 * @module
 */

/** The subagent output format with its wire names (`files-modified`, …): what a subagent returns. */
export type { SubagentOutput } from "@task-context/protocols/sage";
export { type ChildProcessRunnerOptions, childProcessRunner } from "./child-process-runner.ts";
export { ContextReadOnlyError } from "./errors/context-read-only-error.ts";
export type { SpawnerErrorCode } from "./errors/spawner-error-code.ts";
export { SubagentProcessError } from "./errors/subagent-process-error.ts";
export { SubagentSetupError, type SubagentSetupStep } from "./errors/subagent-setup-error.ts";
export { SubagentWorkspaceExistsError } from "./errors/subagent-workspace-exists-error.ts";
export { functionRunner, type SubagentFunction } from "./function-runner.ts";
export { protectInheritedContext } from "./protect-inherited-context.ts";
export type { SpawnOptions, SubagentSpawnEvent } from "./spawn-options.ts";
export { spawnSubagents } from "./spawn-subagents.ts";
export type {
  ContextIntegrity,
  SubagentContextView,
  SubagentResult,
  SubagentStatus,
} from "./subagent-result.ts";
export type {
  SubagentInvocation,
  SubagentRunner,
  SubagentRunnerOutput,
} from "./subagent-runner.ts";
export type { SubagentTask, SubagentType } from "./subagent-task.ts";
