import { lstatSync, mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ArgumentError, CONTEXT_FILENAME, type Workspace } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { checkSpawnArguments, type PlannedTask } from "./check-spawn-arguments.ts";
import { SubagentWorkspaceExistsError } from "./errors/subagent-workspace-exists-error.ts";
import {
  checkContextCopy,
  loadParentContext,
  type ParentContext,
  writeContextCopy,
  writeNewFile,
} from "./inherited-context.ts";
import { interpretOutput } from "./interpret-output.ts";
import { protectInheritedContext } from "./protect-inherited-context.ts";
import { loadParentLimits, type ParentLimits, renderSageContext } from "./sage-context.ts";
import type { SpawnOptions } from "./spawn-options.ts";
import type { SubagentResult, SubagentStatus } from "./subagent-result.ts";
import type {
  SubagentInvocation,
  SubagentRunner,
  SubagentRunnerOutput,
} from "./subagent-runner.ts";
import type { SubagentTask } from "./subagent-task.ts";

/** How a runner call ended. */
type RunOutcome =
  | { kind: "output"; value: SubagentRunnerOutput }
  | { kind: "error"; error: unknown }
  | { kind: "stopped"; reason: "timeout" | "aborted"; log?: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function logOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const log = (value as { log?: unknown }).log;
  return typeof log === "string" && log !== "" ? log : undefined;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null
    ? (error as { code?: string }).code
    : undefined;
}

/** Resolves after `ms` milliseconds unless cancelled; never holds the process open when cancelled. */
function delay(ms: number): { promise: Promise<void>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * Calls the runner, racing it against the task's timeout and the caller's signal. On a stop it
 * aborts the invocation's signal, stops waiting, and gives the runner `stopGraceMs` to settle
 * (a child process runner uses it to make sure its process group is gone).
 */
async function runWithin(
  runner: SubagentRunner,
  invocation: Omit<SubagentInvocation, "signal">,
  timeoutMs: number,
  outer: AbortSignal | undefined,
): Promise<RunOutcome> {
  const controller = new AbortController();
  let reason: "timeout" | "aborted" | undefined;
  const stop = (why: "timeout" | "aborted", cause: unknown) => {
    if (reason !== undefined) return;
    reason = why;
    controller.abort(cause);
  };
  const stopped = new Promise<undefined>((resolve) =>
    controller.signal.addEventListener("abort", () => resolve(undefined), { once: true }),
  );
  const timer = setTimeout(
    () =>
      stop(
        "timeout",
        new DOMException(
          `Subagent ${invocation.id} timed out after ${timeoutMs} ms.`,
          "TimeoutError",
        ),
      ),
    timeoutMs,
  );
  const onAbort = () => stop("aborted", outer?.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  if (outer?.aborted) onAbort();
  try {
    // Aborted while the directory was being set up: do not start what would be stopped at once.
    if (reason !== undefined) return { kind: "stopped", reason };
    const running: Promise<RunOutcome> = (async () =>
      runner.run({ ...invocation, signal: controller.signal }))().then(
      (value) => ({ kind: "output", value }),
      (error: unknown) => ({ kind: "error", error }),
    );
    const first = await Promise.race([running, stopped]);
    if (first !== undefined && (reason === undefined || first.kind === "output")) return first;
    const why = reason ?? "aborted";
    const grace = runner.stopGraceMs ?? 0;
    if (grace <= 0) return { kind: "stopped", reason: why };
    const wait = delay(grace);
    const late = await Promise.race([running, wait.promise]);
    wait.cancel();
    const log = late !== undefined && late.kind === "error" ? logOf(late.error) : undefined;
    return log === undefined
      ? { kind: "stopped", reason: why }
      : { kind: "stopped", reason: why, log };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onAbort);
  }
}

function joinNotes(...parts: Array<string | undefined>): string | undefined {
  const kept = parts.filter((part): part is string => part !== undefined && part !== "");
  return kept.length === 0 ? undefined : kept.join("\n\n");
}

const stderrNote = (log: string | undefined) =>
  log === undefined ? undefined : `Subagent stderr (end):\n${log}`;

/** Everything one spawn call shares between its subagents. */
interface SpawnRun {
  options: SpawnOptions;
  root: string;
  parentContext: ParentContext;
  limits: ParentLimits;
}

/** Sets up, runs and checks one subagent. Never throws: every problem becomes its result. */
async function runSubagent(run: SpawnRun, task: PlannedTask): Promise<SubagentResult> {
  const { options, parentContext } = run;
  const directory = join(run.root, task.id);
  const warnings: string[] = [];
  if (parentContext.context.warning !== undefined) warnings.push(parentContext.context.warning);
  let status: SubagentStatus = "failure";
  let summary = "";
  let filesModified: string[] = [];
  let notes: string | undefined;
  let recommendedAction: string | undefined;
  let issues: SubagentResult["issues"];
  let contextIntegrity: SubagentResult["contextIntegrity"] = "intact";
  let started: number | undefined;

  const abortedBeforeStart = () => {
    status = "aborted";
    summary = `Subagent ${JSON.stringify(task.id)} was not started: the spawn was aborted.`;
  };

  try {
    if (options.signal?.aborted) abortedBeforeStart();
    else {
      started = performance.now();
      // The document first: a task too large for its subagent type fails without a directory.
      const sage = await renderSageContext(
        run.limits,
        { taskId: task.id, subagentType: task.subagentType, taskData: task.taskData },
        { tokenizer: options.tokenizer, summarize: options.summarize },
      );
      for (const warning of sage.warnings) warnings.push(`Sage context: ${warning}`);
      if (options.signal?.aborted) {
        abortedBeforeStart();
        started = undefined;
      } else {
        try {
          mkdirSync(directory);
        } catch (error) {
          if (errorCode(error) === "EEXIST")
            throw new SubagentWorkspaceExistsError({ paths: [directory] });
          throw error;
        }
        writeContextCopy(directory, parentContext.bytes);
        try {
          writeNewFile(directory, sage.path, sage.bytes);
          const invocation = {
            id: task.id,
            subagentType: task.subagentType,
            prompt: task.prompt,
            workspace: protectInheritedContext(nodeWorkspace(directory)),
            directory,
            contextFile: sage.path,
          };
          try {
            options.onSpawn?.({
              id: task.id,
              subagentType: task.subagentType,
              directory,
              contextFile: sage.path,
              prompt: task.prompt,
            });
          } catch (error) {
            warnings.push(`The onSpawn hook threw: ${messageOf(error)}`);
          }
          const outcome = await runWithin(
            options.runner,
            invocation,
            task.timeoutMs,
            options.signal,
          );
          if (outcome.kind === "stopped") {
            status = outcome.reason;
            summary =
              outcome.reason === "timeout"
                ? `Subagent ${JSON.stringify(task.id)} did not finish within ${task.timeoutMs} ms and was stopped.`
                : `Subagent ${JSON.stringify(task.id)} was aborted: ${messageOf(options.signal?.reason ?? "aborted")}`;
            notes = stderrNote(outcome.log);
          } else if (outcome.kind === "error") {
            summary = messageOf(outcome.error);
            notes = stderrNote(logOf(outcome.error));
          } else {
            const interpreted = interpretOutput(outcome.value.output);
            const log = stderrNote(logOf(outcome.value));
            if (interpreted.valid) {
              const { output } = interpreted;
              status = output.status;
              summary = output.summary;
              filesModified = output["files-modified"];
              notes = joinNotes(output.notes, log);
              recommendedAction = output["recommended-action"];
            } else {
              summary = `Subagent ${JSON.stringify(task.id)} returned an unusable result: ${interpreted.problem} (see issues).`;
              issues = interpreted.issues;
              notes = log;
            }
          }
        } finally {
          // The SHA-256 was kept in this process, out of the subagent's reach.
          const problem = checkContextCopy(
            directory,
            parentContext.bytes.length,
            parentContext.context.sha256,
          );
          if (problem !== undefined) {
            contextIntegrity = "modified";
            warnings.push(
              `The subagent's copy of CONTEXT.md ${problem} during the run; it is read-only, so the subagent may have worked with context other than the parent's.`,
            );
          }
        }
      }
    }
  } catch (error) {
    status = "failure";
    summary = messageOf(error);
  }

  if (started !== undefined) {
    try {
      const change = await parentContext.changedSince();
      if (change === "changed") {
        warnings.push(
          `The parent's CONTEXT.md changed while this subagent ran; it worked with the earlier version (sha256 ${parentContext.context.sha256.slice(0, 12)}…).`,
        );
      } else if (change === "removed") {
        warnings.push("The parent's CONTEXT.md was removed while this subagent ran.");
      }
    } catch (error) {
      warnings.push(
        `Could not check whether the parent's CONTEXT.md changed during the run: ${messageOf(error)}`,
      );
    }
  }

  const result: SubagentResult = {
    id: task.id,
    status,
    summary,
    filesModified,
    contextIntegrity,
    durationMs: started === undefined ? 0 : Math.round(performance.now() - started),
    workspace: directory,
  };
  if (notes !== undefined) result.notes = notes;
  if (recommendedAction !== undefined) result.recommendedAction = recommendedAction;
  if (issues !== undefined) result.issues = issues;
  if (warnings.length > 0) result.warning = warnings.join(" ");
  return result;
}

function report(options: SpawnOptions, result: SubagentResult): void {
  try {
    options.onResult?.(result);
  } catch (error) {
    const warning = `The onResult hook threw: ${messageOf(error)}`;
    result.warning = result.warning === undefined ? warning : `${result.warning} ${warning}`;
  }
}

/**
 * Where the subagents' directories go: the caller's `workspacesRoot`, or a new temporary directory
 * (not created when the run is aborted before it starts).
 */
function subagentsRoot(options: SpawnOptions): string {
  if (options.workspacesRoot !== undefined) return resolve(options.workspacesRoot);
  const prefix = join(tmpdir(), "task-context-subagents-");
  return options.signal?.aborted ? `${prefix}aborted` : mkdtempSync(prefix);
}

/**
 * Spawns one subagent per task, each in its own directory `{workspacesRoot}/{id}` holding a
 * read-only copy of the parent's CONTEXT.md and its Sage context file, and returns their results
 * in the order of `tasks`.
 *
 * Before anything is created or started it checks the arguments (`ArgumentError`), loads
 * the parent's CONTEXT.md (`TaskContextMissingError`, with the guiding message, when there is
 * none), checks the parent's `.sage/config/context-limits.yaml` (`ContextLimitsError`) and that
 * no subagent directory exists yet (`SubagentWorkspaceExistsError`). Then, at most `concurrency`
 * at a time, for each subagent:
 *
 * 1. generates its `.sage/context/{id}.xml` with protocols' `generateContext` and the parent's
 *    limits for its subagent type (a task too large for its type is a `"failure"` result, the
 *    others run);
 * 2. creates its directory (never reusing one) and writes CONTEXT.md — the text the loader
 *    delivered, bounded to `maxChars` — with mode 0444, keeping the SHA-256 in this process;
 * 3. calls the runner with the prompt (prefixed with the Context Protocol v1 block when
 *    `project` is given) and a Workspace that refuses writes to CONTEXT.md;
 * 4. stops it on timeout (`"timeout"`) or abort (`"aborted"`), or validates its output against
 *    spec 002's output format (anything else is a `"failure"` with `issues`);
 * 5. checks the copy of CONTEXT.md (`contextIntegrity`) and whether the parent's CONTEXT.md
 *    changed meanwhile; both, and the loader's truncation warning, go into `warning`.
 *
 * It never throws once subagents start: every problem is a result. The parent's CONTEXT.md is
 * only read.
 *
 * @example
 * ```ts
 * import { functionRunner, spawnSubagents } from "@task-context/spawner";
 *
 * const results = await spawnSubagents(
 *   "/srv/agents/run-42",
 *   [
 *     { id: "export-1", subagentType: "implement", prompt: "Add Markdown export to the note menu." },
 *     { id: "export-1-review", subagentType: "review", prompt: "Review the export menu for accessibility." },
 *   ],
 *   {
 *     workspacesRoot: "/srv/agents/run-42/subagents",
 *     runner: functionRunner(async ({ prompt, workspace, signal }) => runMyAgent(prompt, workspace, signal)),
 *     timeoutMs: 300_000,
 *   },
 * );
 * for (const result of results) if (result.warning) console.warn(result.id, result.warning);
 * ```
 */
export async function spawnSubagents(
  parent: string | Workspace,
  tasks: SubagentTask[],
  options: SpawnOptions,
): Promise<SubagentResult[]> {
  const plan = checkSpawnArguments(parent, tasks, options);
  const parentWorkspace = typeof parent === "string" ? nodeWorkspace(parent) : parent;
  const parentContext = await loadParentContext(
    parentWorkspace,
    options.load,
    typeof parent === "string" ? join(resolve(parent), CONTEXT_FILENAME) : undefined,
  );
  if (plan.tasks.length === 0) return [];
  const limits = await loadParentLimits(
    parentWorkspace,
    plan.tasks.map((task) => task.subagentType),
  );
  const root = subagentsRoot(options);
  const rootStats = statSync(root, { throwIfNoEntry: false });
  if (rootStats !== undefined && !rootStats.isDirectory()) {
    throw new ArgumentError({
      argument: "options.workspacesRoot",
      message: `${JSON.stringify(root)} exists and is not a directory; name a directory (it is created when missing).`,
    });
  }
  const existing = plan.tasks
    .map((task) => join(root, task.id))
    .filter((directory) => lstatSync(directory, { throwIfNoEntry: false }) !== undefined);
  if (existing.length > 0) throw new SubagentWorkspaceExistsError({ paths: existing });
  if (!options.signal?.aborted) mkdirSync(root, { recursive: true });

  const run: SpawnRun = { options, root, parentContext, limits };
  const results = new Array<SubagentResult>(plan.tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < plan.tasks.length) {
      const index = next++;
      const result = await runSubagent(run, plan.tasks[index] as PlannedTask);
      report(options, result);
      results[index] = result;
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(plan.concurrency, plan.tasks.length) }, () => worker()),
  );
  return results;
}
