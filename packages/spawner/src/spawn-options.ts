import type { LoadTaskContextOptions, Tokenizer } from "@task-context/core";
import type { ContextBlock } from "@task-context/protocols/context-block";
import type { Summarizer } from "@task-context/protocols/sage";
import type { SubagentResult } from "./subagent-result.ts";
import type { SubagentRunner } from "./subagent-runner.ts";
import type { SubagentType } from "./subagent-task.ts";

/** Subagents run at once by default. */
export const DEFAULT_CONCURRENCY = 4;

/** Milliseconds a subagent may run by default (10 minutes). */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** What `onSpawn` receives when a subagent starts. */
export interface SubagentSpawnEvent {
  /** The task's id. */
  id: string;
  /** The task's subagent type. */
  subagentType: SubagentType;
  /** The subagent's directory, an absolute path. */
  directory: string;
  /** The Sage context file, relative to `directory`. */
  contextFile: string;
  /** The full prompt handed to the runner. */
  prompt: string;
  /** The SHA-256 of the CONTEXT.md copied into `directory`: the receipt the subagent may quote. */
  contextSha256: string;
}

/** Options of `spawnSubagents`. */
export interface SpawnOptions {
  /** Runs each subagent: `functionRunner(fn)`, `childProcessRunner({ command })` or your own. */
  runner: SubagentRunner;
  /**
   * The directory under which each subagent gets its own directory `{workspacesRoot}/{id}`.
   * Created when missing; directories in it are never reused or deleted. Default: a new directory
   * `task-context-subagents-XXXXXX` in the system's temporary directory, created only once every
   * check has passed (each result's `directory` says where).
   */
  workspacesRoot?: string;
  /** Most subagents running at once: a whole number ≥ 1 (default 4). */
  concurrency?: number;
  /**
   * Most milliseconds each subagent may run: a whole number from 1 to 2 147 483 647 (default
   * 600 000, ten minutes); a task's `timeoutMs` wins.
   */
  timeoutMs?: number;
  /** Aborting stops every running subagent and starts no more (their status is `"aborted"`). */
  signal?: AbortSignal;
  /**
   * A Context Protocol v1 block: when given, every prompt starts with
   * `renderContextBlock(project)` and a blank line. A task's `project` wins.
   */
  project?: ContextBlock;
  /** How the parent's CONTEXT.md is loaded and bounded (`loadTaskContext` options). */
  load?: Pick<LoadTaskContextOptions, "maxChars" | "maxTokens" | "tokenizer">;
  /** Counts tokens for the Sage context limits (default: core's `approximateTokenizer`). */
  tokenizer?: Tokenizer;
  /** Shortens Sage context items over their limit (default: protocols' `extractiveSummarizer`). */
  summarize?: Summarizer;
  /**
   * Called when a subagent starts, just before its runner is called. A returned promise is
   * awaited; an error it throws or rejects with becomes a sentence of the result's `warning`.
   */
  onSpawn?: (event: SubagentSpawnEvent) => void;
  /**
   * Called once per subagent with its final result (also for subagents that never started). A
   * returned promise is awaited; an error it throws or rejects with is appended to `warning`.
   */
  onResult?: (result: SubagentResult) => void;
}
