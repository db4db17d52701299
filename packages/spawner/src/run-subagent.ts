import { join } from "node:path";
import { checkReceipt, contextChangedWarning, type TaskContextView } from "@task-context/core";
import {
  describeArgument,
  graphemeBoundaryAtOrBefore,
  thrownMessage,
} from "@task-context/core/internal";
import { nodeWorkspace } from "@task-context/core/node";
import type { ValidationIssue } from "@task-context/protocols";
import type { PlannedTask, SpawnPlan } from "./check-spawn-arguments.ts";
import { checkContextCopy, type ParentContext } from "./inherited-context.ts";
import type { InheritedContexts } from "./inherited-views.ts";
import { interpretOutput } from "./interpret-output.ts";
import { neutraliseSubagentReport } from "./neutralise-subagent-report.ts";
import { prepareSubagent } from "./prepare-subagent.ts";
import { protectInheritedContext } from "./protect-inherited-context.ts";
import { type RunOutcome, runWithin } from "./run-within.ts";
import type { ParentLimits } from "./sage-context.ts";
import type { SpawnOptions, SubagentSpawnEvent } from "./spawn-options.ts";
import type { SubagentResult, SubagentStatus } from "./subagent-result.ts";

/** Everything one `spawnSubagents` call shares between its subagents. */
export interface SpawnRun {
  plan: SpawnPlan;
  options: SpawnOptions;
  /** The absolute directory that holds every subagent's `{id}` directory. */
  root: string;
  /** The parent's CONTEXT.md as each subagent inherits it: whole, or its task's view. */
  contexts: InheritedContexts;
  limits: ParentLimits;
}

/** What a subagent's run says about it: the result's fields the runner decides. */
interface RunReport {
  status: SubagentStatus;
  summary: string;
  filesModified?: string[] | undefined;
  notes?: string | undefined;
  recommendedAction?: string | undefined;
  issues?: ValidationIssue[] | undefined;
  /** The `context-sha256` the subagent quoted in its output. */
  quotedContextSha256?: string | undefined;
}

/** Characters of a runner's log kept for the result's notes: its end. */
const MAX_LOG_CHARS = 16_384;

/** A runner's `log`, when it gave a non-empty string; undefined for anything else. */
function logOf(value: unknown): string | undefined {
  try {
    const log = typeof value === "object" && value !== null ? (value as { log?: unknown }).log : "";
    return typeof log === "string" && log !== "" ? log : undefined;
  } catch {
    return undefined; // A getter that throws: no log.
  }
}

/** The end of a runner's log, labelled for the result's notes. */
function logNote(log: string | undefined): string | undefined {
  if (log === undefined) return undefined;
  const end =
    log.length > MAX_LOG_CHARS
      ? `…${log.slice(graphemeBoundaryAtOrBefore(log, log.length - MAX_LOG_CHARS))}`
      : log;
  return `Subagent stderr (end):\n${end}`;
}

function joinNotes(...parts: Array<string | undefined>): string | undefined {
  const kept = parts.filter((part): part is string => part !== undefined && part !== "");
  return kept.length === 0 ? undefined : kept.join("\n\n");
}

/**
 * Calls a hook and awaits what it returns (an async hook's promise); what it throws or rejects
 * with becomes a warning instead of an unhandled rejection.
 */
export async function callHook<Value>(
  name: "onSpawn" | "onResult",
  hook: ((value: Value) => void) | undefined,
  value: Value,
): Promise<string | undefined> {
  try {
    await (hook?.(value) as unknown);
    return undefined;
  } catch (error) {
    return `The ${name} hook threw: ${thrownMessage(error, describeArgument(error))}`;
  }
}

/** A runner's `output`, or undefined when its answer is not an object or cannot be read. */
function outputOf(value: unknown): { output: unknown } | undefined {
  try {
    return typeof value === "object" && value !== null
      ? { output: (value as { output?: unknown }).output }
      : undefined;
  } catch {
    return undefined; // A getter that throws.
  }
}

/** What a runner's answer makes of the result: its output, or why it is unusable. */
function reportOutput(value: unknown, shownId: string): RunReport {
  const answer = outputOf(value);
  if (answer === undefined) {
    return {
      status: "failure",
      summary: `Subagent ${shownId}'s runner did not return a readable { output, log? } object: it returned ${describeArgument(value)}.`,
    };
  }
  const log = logNote(logOf(value));
  const interpreted = interpretOutput(answer.output);
  if (!interpreted.valid) {
    return {
      status: "failure",
      summary: `Subagent ${shownId} returned an unusable result: ${interpreted.problem} (see issues).`,
      issues: interpreted.issues,
      notes: log,
    };
  }
  const { output } = interpreted;
  return {
    status: output.status,
    summary: output.summary,
    filesModified: output["files-modified"],
    notes: joinNotes(output.notes, log),
    recommendedAction: output["recommended-action"],
    quotedContextSha256: output["context-sha256"],
  };
}

/** What a runner call's outcome makes of the result. */
function reportOutcome(outcome: RunOutcome, task: PlannedTask, signal?: AbortSignal): RunReport {
  const shownId = JSON.stringify(task.id);
  switch (outcome.kind) {
    case "stopped":
      return {
        status: outcome.reason,
        summary:
          outcome.reason === "timeout"
            ? `Subagent ${shownId} did not finish within ${task.timeoutMs} ms and was stopped.`
            : `Subagent ${shownId} was aborted: ${thrownMessage(signal?.reason, "the spawn was aborted")}`,
        notes: logNote(logOf(outcome.error)),
      };
    case "error":
      return {
        status: "failure",
        summary: thrownMessage(
          outcome.error,
          `Subagent ${shownId}'s runner threw ${describeArgument(outcome.error)}, not an Error with a message.`,
        ),
        notes: logNote(logOf(outcome.error)),
      };
    case "output":
      return reportOutput(outcome.value, shownId);
  }
}

/** Calls `onSpawn`, then the runner; never throws. */
async function runPrepared(
  run: SpawnRun,
  task: PlannedTask,
  directory: string,
  contextFile: string,
): Promise<{ report: RunReport; hookWarning: string | undefined }> {
  const event: SubagentSpawnEvent = {
    id: task.id,
    subagentType: task.subagentType,
    directory,
    contextFile,
    prompt: task.prompt,
    contextSha256: run.contexts.of(task).context.sha256,
  };
  const hookWarning = await callHook("onSpawn", run.options.onSpawn, event);
  const outcome = await runWithin(
    run.plan.runner,
    { ...event, workspace: protectInheritedContext(nodeWorkspace(directory)) },
    task.timeoutMs,
    run.options.signal,
  );
  try {
    return { report: reportOutcome(outcome, task, run.options.signal), hookWarning };
  } catch {
    // Only a value built to fail every inspection (a revoked Proxy) gets here.
    const summary = `Subagent ${JSON.stringify(task.id)}'s runner returned or threw a value that cannot be inspected.`;
    return { report: { status: "failure", summary }, hookWarning };
  }
}

/**
 * The subagent's receipt checked against the parent's CONTEXT.md as it is now, as a warning;
 * undefined when current. When the parent's CONTEXT.md changed or vanished during the run, the
 * warning says so (it is the parent's own file); a subagent that quoted the hash of yet other
 * context also gets core's stale-receipt sentence.
 */
async function receiptWarning(
  parent: ParentContext,
  id: string,
  quoted: string | undefined,
): Promise<string | undefined> {
  const given = parent.context.sha256;
  const recipient = `subagent ${JSON.stringify(id)}`;
  try {
    const current = await parent.currentSha256();
    const quotedOther =
      quoted !== undefined && quoted.toLowerCase() !== given && current !== undefined
        ? checkReceipt({ quoted, current, recipient }).warning
        : undefined;
    const sentences = [contextChangedWarning({ recipient, given, current }), quotedOther];
    const warning = sentences.filter((sentence) => sentence !== undefined).join(" ");
    return warning === "" ? undefined : warning;
  } catch (error) {
    return `Could not check whether your CONTEXT.md changed while ${recipient} ran: ${thrownMessage(error, describeArgument(error))}`;
  }
}

/** Builds a result from what the spawner knows and what the run reported. */
function buildResult(
  known: Pick<
    SubagentResult,
    "id" | "directory" | "durationMs" | "contextIntegrity" | "contextSha256"
  > & { view: TaskContextView | undefined },
  report: RunReport,
  warnings: ReadonlyArray<string | undefined>,
): SubagentResult {
  const result: SubagentResult = {
    id: known.id,
    status: report.status,
    summary: report.summary,
    filesModified: report.filesModified ?? [],
    contextIntegrity: known.contextIntegrity,
    contextSha256: known.contextSha256,
    durationMs: known.durationMs,
    directory: known.directory,
  };
  if (known.view !== undefined) {
    const { name, sections, fileSha256 } = known.view;
    result.view = { name, sections: [...sections], sha256: known.contextSha256, fileSha256 };
  }
  if (report.notes !== undefined) result.notes = report.notes;
  if (report.recommendedAction !== undefined) result.recommendedAction = report.recommendedAction;
  if (report.issues !== undefined) result.issues = report.issues;
  const warning = warnings.filter((sentence) => sentence !== undefined).join(" ");
  if (warning !== "") result.warning = warning;
  return result;
}

/**
 * Sets up, runs and checks one subagent — prepare, run, verify — and returns its result. Never
 * throws: every problem becomes the result's status, summary or warning.
 */
export async function runSubagent(run: SpawnRun, task: PlannedTask): Promise<SubagentResult> {
  const directory = join(run.root, task.id);
  const inherited = run.contexts.of(task);
  const parentWarning = inherited.context.warning;
  const contextSha256 = inherited.context.sha256;
  const view = inherited.context.view;
  const notStarted = () =>
    buildResult(
      { id: task.id, directory, durationMs: 0, contextIntegrity: "intact", contextSha256, view },
      {
        status: "aborted",
        summary: `Subagent ${JSON.stringify(task.id)} was not started: the spawn was aborted.`,
      },
      [parentWarning],
    );
  if (run.options.signal?.aborted) return notStarted();
  const started = performance.now();

  // 1. Prepare: the Sage context, the directory, CONTEXT.md and the context file.
  const preparation = await prepareSubagent(run, task, directory);
  if (preparation.kind === "aborted") return notStarted();

  // 2. Run: the onSpawn hook and the runner, within the task's timeout and the caller's signal.
  const { report, hookWarning } =
    preparation.kind === "ready"
      ? await runPrepared(run, task, directory, preparation.contextFile)
      : {
          report: {
            status: "failure" as const,
            summary: thrownMessage(preparation.error, describeArgument(preparation.error)),
          },
          hookWarning: undefined,
        };

  // 3. Verify: the copy of CONTEXT.md against the SHA-256 kept in this process, out of the
  // subagent's reach, and its receipt against the parent's CONTEXT.md as it is now.
  const { bytes, context } = inherited;
  const copyProblem = preparation.copyWritten
    ? await checkContextCopy(directory, bytes.length, context.sha256)
    : undefined;
  const receipt = await receiptWarning(inherited, task.id, report.quotedContextSha256);
  // 4. What the subagent wrote is earlier work: neutralised before the parent sees it.
  const neutralised = neutraliseSubagentReport(report, task.id);

  return buildResult(
    {
      id: task.id,
      directory,
      durationMs: Math.round(performance.now() - started),
      contextIntegrity: copyProblem === undefined ? "intact" : "modified",
      contextSha256,
      view,
    },
    neutralised.report,
    [
      parentWarning,
      preparation.sageWarning,
      hookWarning,
      copyProblem === undefined
        ? undefined
        : `The subagent's copy of CONTEXT.md ${copyProblem} during the run; it is read-only, so the subagent may have worked with context other than the parent's.`,
      receipt,
      neutralised.warning,
    ],
  );
}
