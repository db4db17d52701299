import { mkdirSync } from "node:fs";
import type { TaskContextError } from "@task-context/core";
import { systemErrorCode } from "@task-context/core/internal";
import type { PlannedTask } from "./check-spawn-arguments.ts";
import { SubagentSetupError, type SubagentSetupStep } from "./errors/subagent-setup-error.ts";
import { SubagentWorkspaceExistsError } from "./errors/subagent-workspace-exists-error.ts";
import { writeContextCopy, writeNewFile } from "./inherited-context.ts";
import type { SpawnRun } from "./run-subagent.ts";
import { renderSageContext, type SageContextFile } from "./sage-context.ts";

/** What setting up one subagent's directory came to. */
export type Preparation =
  /** The spawn was aborted while the Sage context was generated: nothing was created. */
  | { kind: "aborted" }
  /** A step failed; `copyWritten` says whether the copy of CONTEXT.md is there to check. */
  | { kind: "failed"; error: unknown; sageWarning: string | undefined; copyWritten: boolean }
  /** The directory holds CONTEXT.md and `contextFile`: the subagent can run. */
  | { kind: "ready"; contextFile: string; sageWarning: string | undefined; copyWritten: true };

/** The error a failed file-system step of the setup becomes. */
function setupError(
  step: SubagentSetupStep,
  taskId: string,
  directory: string,
  error: unknown,
): TaskContextError {
  const systemCode = systemErrorCode(error);
  if (step === "directory" && systemCode === "EEXIST") {
    return new SubagentWorkspaceExistsError({ paths: [directory] });
  }
  return new SubagentSetupError({ step, taskId, systemCode });
}

/**
 * Sets up one subagent: generates its Sage context document first (a task too large for its
 * subagent type fails without a directory), then creates `directory` (never reusing one), writes
 * the read-only copy of CONTEXT.md (the task's view of it, when it has one) and the context file. Never throws: a failed step is a
 * `"failed"` preparation whose error says what happened and what to do.
 */
export async function prepareSubagent(
  run: SpawnRun,
  task: PlannedTask,
  directory: string,
): Promise<Preparation> {
  let sage: SageContextFile;
  try {
    sage = await renderSageContext(
      run.limits,
      { taskId: task.id, subagentType: task.subagentType, taskData: task.taskData },
      { tokenizer: run.options.tokenizer, summarize: run.options.summarize },
    );
  } catch (error) {
    return { kind: "failed", error, sageWarning: undefined, copyWritten: false };
  }
  if (run.options.signal?.aborted) return { kind: "aborted" };
  const steps: ReadonlyArray<readonly [SubagentSetupStep, () => void]> = [
    ["directory", () => mkdirSync(directory)],
    ["context-copy", () => writeContextCopy(directory, run.contexts.of(task).bytes)],
    ["context-file", () => writeNewFile(directory, sage.path, sage.bytes)],
  ];
  for (const [index, [step, write]] of steps.entries()) {
    try {
      write();
    } catch (error) {
      return {
        kind: "failed",
        error: setupError(step, task.id, directory, error),
        sageWarning: sage.warning,
        copyWritten: index > 1,
      };
    }
  }
  return { kind: "ready", contextFile: sage.path, sageWarning: sage.warning, copyWritten: true };
}
