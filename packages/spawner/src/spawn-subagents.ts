import { lstatSync, mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  ArgumentError,
  CONTEXT_FILENAME,
  TaskContextError,
  type Workspace,
} from "@task-context/core";
import { systemErrorCode } from "@task-context/core/internal";
import { nodeWorkspace } from "@task-context/core/node";
import { checkSpawnArguments, type PlannedTask } from "./check-spawn-arguments.ts";
import { SubagentSetupError } from "./errors/subagent-setup-error.ts";
import { SubagentWorkspaceExistsError } from "./errors/subagent-workspace-exists-error.ts";
import { loadInheritedContexts } from "./inherited-views.ts";
import { callHook, runSubagent, type SpawnRun } from "./run-subagent.ts";
import { loadParentLimits } from "./sage-context.ts";
import type { SpawnOptions } from "./spawn-options.ts";
import type { SubagentResult } from "./subagent-result.ts";
import type { SubagentTask } from "./subagent-task.ts";
import { traceSubagent } from "./trace-subagent.ts";

/**
 * Resolves where the subagents' directories go — the caller's `workspacesRoot`, or a new
 * temporary directory (not created when the run is aborted before it starts) — and checks that
 * none of them exists yet. Creates the root when missing. Throws `ArgumentError` for a root that
 * is not a directory, `SubagentWorkspaceExistsError`, or `SubagentSetupError` when the file
 * system refuses.
 */
function prepareWorkspacesRoot(options: SpawnOptions, tasks: readonly PlannedTask[]): string {
  const aborted = options.signal?.aborted === true;
  try {
    const prefix = join(tmpdir(), "task-context-subagents-");
    const root =
      options.workspacesRoot !== undefined
        ? resolve(options.workspacesRoot)
        : aborted
          ? `${prefix}aborted`
          : mkdtempSync(prefix);
    const stats = statSync(root, { throwIfNoEntry: false });
    if (stats !== undefined && !stats.isDirectory()) {
      throw new ArgumentError({
        argument: "options.workspacesRoot",
        message: `${JSON.stringify(root)} exists and is not a directory; name a directory (it is created when missing).`,
      });
    }
    const existing = tasks
      .map((task) => join(root, task.id))
      .filter((directory) => lstatSync(directory, { throwIfNoEntry: false }) !== undefined);
    if (existing.length > 0) throw new SubagentWorkspaceExistsError({ paths: existing });
    if (!aborted) mkdirSync(root, { recursive: true });
    return root;
  } catch (error) {
    if (TaskContextError.isInstance(error)) throw error;
    throw new SubagentSetupError({ step: "workspaces-root", systemCode: systemErrorCode(error) });
  }
}

/**
 * Spawns one subagent per task, each in its own directory `{workspacesRoot}/{id}` holding a
 * read-only copy of the parent's CONTEXT.md and its Sage context file, and returns their results
 * in the order of `tasks`.
 *
 * Before anything is created or started it checks the arguments (`ArgumentError`), loads
 * the parent's CONTEXT.md (`TaskContextMissingError`, with the guiding message, when there is
 * none) and each task's view of it (`ContextViewEmptyError` for a view that selects nothing), checks the parent's `.sage/config/context-limits.yaml` (`ContextLimitsError`), that
 * no subagent directory exists yet (`SubagentWorkspaceExistsError`) and that the workspaces root
 * can be created (`SubagentSetupError`). Then, at most `concurrency` at a time (default 4), for
 * each subagent:
 *
 * 1. generates its `.sage/context/{id}.xml` with the parent's limits for its subagent type (a
 *    task too large for its type is a `"failure"` result, the others run);
 * 2. creates its directory (never reusing one) and writes CONTEXT.md — the text the loader
 *    delivered, bounded to `load.maxChars` (default 10 000), or the task's `view` of it (the
 *    result's `view` says which sections) — with mode 0444, keeping the
 *    SHA-256 in this process (a file-system error here is that subagent's `"failure"`);
 * 3. calls the runner with the prompt (prefixed with the Context Protocol v1 block when
 *    `project` is given) and a Workspace that refuses writes to CONTEXT.md;
 * 4. stops it on timeout (default 600 000 ms: `"timeout"`) or abort (`"aborted"`), or validates
 *    its output against the subagent output format (anything else is a `"failure"` with `issues`);
 * 5. checks the copy of CONTEXT.md (`contextIntegrity`) and whether the parent's CONTEXT.md
 *    changed meanwhile; both, and the loader's truncation warning, go into `warning`.
 *
 * It never throws once subagents start: every problem is a result. The parent's CONTEXT.md is
 * only read. See https://github.com/task-context/task-context/blob/main/docs/subagents.md
 *
 * @example
 * ```ts source="../examples/spawn-subagents.ts#spawnSubagents"
 * const results = await spawnSubagents(
 *   ".", // the parent's workspace, which holds CONTEXT.md: here the current directory
 *   [
 *     { id: "export-1", subagentType: "implement", prompt: "Add Markdown export to the note menu." },
 *     {
 *       id: "export-1-review",
 *       subagentType: "review",
 *       prompt: "Review the export menu for accessibility.",
 *     },
 *   ],
 *   {
 *     // each subagent works in {workspacesRoot}/{id}; default: a new temporary directory
 *     runner: functionRunner(async ({ prompt, signal }) => ({
 *       status: "success",
 *       summary: await runMyAgent(prompt, signal),
 *       "files-modified": [],
 *     })),
 *   },
 * );
 * for (const result of results) {
 *   console.log(result.id, result.status, result.summary);
 *   if (result.warning) console.warn(result.warning); // show it to the parent agent
 * }
 * ```
 */
export async function spawnSubagents(
  parent: string | Workspace,
  tasks: SubagentTask[],
  options: SpawnOptions,
): Promise<SubagentResult[]> {
  const plan = checkSpawnArguments(parent, tasks, options);
  const parentWorkspace = typeof parent === "string" ? nodeWorkspace(parent) : parent;
  const contexts = await loadInheritedContexts(
    parentWorkspace,
    plan.load,
    plan.tasks,
    typeof parent === "string" ? join(resolve(parent), CONTEXT_FILENAME) : undefined,
  );
  if (plan.tasks.length === 0) return [];
  const limits = await loadParentLimits(
    parentWorkspace,
    plan.tasks.map((task) => task.subagentType),
  );
  const root = prepareWorkspacesRoot(options, plan.tasks);

  const run: SpawnRun = { plan, options, root, contexts, limits };
  const results = new Array<SubagentResult>(plan.tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < plan.tasks.length) {
      const index = next++;
      const task = plan.tasks[index] as PlannedTask;
      const result = await traceSubagent(run, task, () => runSubagent(run, task));
      const hookWarning = await callHook("onResult", options.onResult, result);
      if (hookWarning !== undefined) {
        result.warning =
          result.warning === undefined ? hookWarning : `${result.warning} ${hookWarning}`;
      }
      results[index] = result;
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(plan.concurrency, plan.tasks.length) }, () => worker()),
  );
  return results;
}
