import type { Workspace } from "@task-context/core";
import type { SubagentType } from "./subagent-task.ts";

/** What a runner is asked to run: one subagent, already set up in its own directory. */
export interface SubagentInvocation {
  /** The task's id. */
  id: string;
  /** The task's subagent type. */
  subagentType: SubagentType;
  /** The full prompt: the Context Protocol v1 block and a blank line (when given), then the task. */
  prompt: string;
  /** The subagent's directory as a Workspace in which writing CONTEXT.md throws `ContextReadOnlyError`. */
  workspace: Workspace;
  /** The subagent's directory, an absolute path. */
  directory: string;
  /** The Sage context file, relative to `directory`: `.sage/context/{id}.xml`. */
  contextFile: string;
  /**
   * The SHA-256 of the CONTEXT.md copied into `directory`: the receipt the subagent may quote as
   * `context-sha256` in its output.
   */
  contextSha256: string;
  /** Aborted when the spawner stops waiting (timeout or the caller's signal): stop soon after. */
  signal: AbortSignal;
}

/** What a runner returns for one subagent. */
export interface SubagentRunnerOutput {
  /**
   * The subagent's answer in the subagent output format with its wire names (`status`, `summary`,
   * `files-modified`, `notes`, `recommended-action`): an object, or the JSON text of one. The
   * spawner validates it; anything else makes a `"failure"` result listing the issues.
   */
  output: unknown;
  /**
   * Diagnostics the runner collected, such as the tail of stderr; its last 16 384 characters are
   * appended to `notes`.
   */
  log?: string;
}

/**
 * Runs subagents. `spawnSubagents` sets up each subagent's directory and calls `run` once per
 * subagent; errors thrown by `run` become `"failure"` results with their message. Use
 * `functionRunner` (in process) or `childProcessRunner` (one process each), or write your own.
 *
 * @example
 * ```ts source="../examples/custom-runner.ts#customRunner"
 * const remote: SubagentRunner = {
 *   name: "agent-service",
 *   stopGraceMs: 5_000, // after a stop, wait this long for run() to settle (default 0)
 *   async run({ id, prompt, directory, signal }) {
 *     // output: the subagent output object, or its JSON text
 *     return { output: await postToAgentService({ id, prompt, directory, signal }) };
 *   },
 * };
 * ```
 */
export interface SubagentRunner {
  /** A short label, such as `"function"` or `"child-process"`. */
  readonly name: string;
  /**
   * After a timeout or abort, how many milliseconds the spawner still waits for `run` to settle
   * (so that a killed process group is gone before the result is returned): a whole number from
   * 0 to 2 147 483 647. Default 0.
   */
  readonly stopGraceMs?: number;
  /** Runs one subagent and returns its output. */
  run(invocation: SubagentInvocation): Promise<SubagentRunnerOutput>;
}
