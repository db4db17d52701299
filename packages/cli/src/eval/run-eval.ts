import { join, resolve } from "node:path";
import { redactSecrets } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import { conditionContexts, prepareWorkspace } from "./condition-workspace.ts";
import { conditionsOf, type EvalSpec, type EvalTask } from "./eval-spec.ts";
import { EvaluationError } from "./evaluation-error.ts";
import { type EvalClock, rateLimiter, systemClock } from "./rate-limiter.ts";
import { readTaskInputs } from "./read-task-inputs.ts";
import type { Recipient, RecipientAnswer } from "./recipient.ts";
import { readResults, resultsWriter } from "./results-file.ts";
import { runChecks } from "./run-checks.ts";
import { type ConditionSummary, summarize } from "./summarize.ts";
import type { TrialRecord } from "./trial-record.ts";

/** How {@link runEval} reaches the recipients and where it reads and writes. */
export interface RunEvalOptions {
  /** The recipients by the spec's names. */
  recipients: Readonly<Record<string, Recipient>>;
  /** The judges by the spec's names (for `judge` checks). */
  judges?: Readonly<Record<string, Recipient>>;
  /** The folder the spec's `workspace` and `inputs` are relative to (default: the current one). */
  directory?: string;
  /**
   * The results file (JSON lines): trials recorded there are not run again, new ones are
   * appended as they finish. Without it the run keeps its records in memory only.
   */
  resultsPath?: string;
  /** Overrides the spec's `trials`. */
  trials?: number;
  /** The clock for timings and the rate limit (default the process's). */
  clock?: EvalClock;
  /** Called after each trial is recorded. */
  onTrial?: (record: TrialRecord) => void;
}

/** What a run did, and the summary of every recorded trial that matches the spec. */
export interface EvalRun {
  /** The trials of the spec, recorded (this run or before), in the spec's order. */
  records: TrialRecord[];
  /** Trials this run ran. */
  ran: number;
  /** Trials found in the results file and not run again. */
  resumed: number;
  /** Trials the spec asks for. */
  planned: number;
  /** Why the run stopped before every trial was recorded (a budget). */
  stopped?: string;
  /** Recipient calls (judges included) and tokens reported this run. */
  calls: number;
  tokens: number;
  summary: ConditionSummary[];
}

interface PlannedTrial {
  key: string;
  recipient: string;
  task: EvalTask;
  condition: string;
  trial: number;
}

/** Every trial of the spec, the trial number outermost: a run cut short has every cell. */
async function planTrials(
  spec: EvalSpec,
  trials: number,
  conditions: readonly string[],
  contextHashes: ReadonlyMap<string, string>,
  inputHashes: ReadonlyMap<string, string[]>,
): Promise<PlannedTrial[]> {
  const planned: PlannedTrial[] = [];
  for (let trial = 0; trial < trials; trial += 1) {
    for (const task of spec.tasks) {
      for (const recipient of Object.keys(spec.recipients)) {
        if (task.recipients !== undefined && !task.recipients.includes(recipient)) continue;
        for (const condition of conditions) {
          const key = await sha256Hex(
            JSON.stringify({
              recipient,
              // Which recipients run a task is not part of its trials: adding one re-runs no other.
              task: { ...task, recipients: undefined },
              inputs: inputHashes.get(task.id),
              condition,
              context: contextHashes.get(condition),
              trial,
              seed: spec.seed ?? 0,
            }),
          );
          planned.push({ key, recipient, task, condition, trial });
        }
      }
    }
  }
  return planned;
}

/** Calls for a trial: the recipient and each judge check. */
function callsOf(task: EvalTask): number {
  return 1 + task.checks.filter((check) => "judge" in check).length;
}

/**
 * Runs every task of `spec` under every condition, `trials` times per recipient, and summarises:
 * per recipient and condition the pass rate (Wilson 95 % interval), tokens and time, and each
 * context condition against `none` (Fisher's exact test, two-sided, α = 0.05). Trials already in
 * the results file are not run again; a budget stops the run between trials.
 *
 * @example
 * ```ts source="../../examples/eval.ts#runEval"
 * const spec = parseEvalSpec({
 *   recipients: { vision: {}, transcriber: {} },
 *   tasks: [
 *     {
 *       id: "wordmark",
 *       prompt: "What does the large text on the launch screenshot say or name?",
 *       checks: [{ regex: "the product's wordmark|^LUMEN$" }],
 *     },
 *   ],
 *   conditions: ["none", "full", "view:brief"],
 *   trials: 20,
 * });
 * const run = await runEval(spec, {
 *   recipients: {
 *     // Reads the wordmark right when the context defines it; takes it for a hospital without.
 *     vision: createVisionStandIn({ wordmark: "LUMEN", misreading: "a hospital or a clinic" }),
 *     // Copies text exactly, unless the context's writing rules make it "correct" the capitals.
 *     transcriber: createTranscriptionStandIn({ text: "LUMEN" }),
 *   },
 *   directory, // the workspace (its CONTEXT.md) and the tasks' inputs are found here
 *   resultsPath: join(directory, "results.jsonl"), // run again: recorded trials are not repeated
 * });
 * process.stdout.write(renderSummaryTable(run.summary));
 * // vision       full        90% (18/20)  70%–97%       114     1 ms  helps (p < 0.0001)
 * // transcriber  full        0% (0/20)    0%–16%        102     0 ms  hurts (p < 0.0001)
 * await writeFile(join(directory, "report.html"), renderHtmlReport(run));
 * ```
 */
export async function runEval(spec: EvalSpec, options: RunEvalOptions): Promise<EvalRun> {
  const directory = options.directory ?? process.cwd();
  const workspace = join(directory, spec.workspace ?? ".");
  const conditions = conditionsOf(spec);
  const clock = options.clock ?? systemClock;
  for (const name of Object.keys(spec.recipients)) {
    if (options.recipients[name] === undefined) {
      throw new EvaluationError({
        code: "EVAL_SPEC_INVALID",
        message: `recipients.${name}: no recipient function given for it; pass it in options.recipients`,
      });
    }
  }
  for (const name of Object.keys(spec.judges ?? {})) {
    if (options.judges?.[name] === undefined) {
      throw new EvaluationError({
        code: "EVAL_SPEC_INVALID",
        message: `judges.${name}: no judge function given for it; pass it in options.judges`,
      });
    }
  }
  const contexts = await conditionContexts(spec, conditions, workspace);
  const inputHashes = new Map<string, string[]>();
  for (const task of spec.tasks) {
    const { inputs } = await readTaskInputs(task, directory);
    inputHashes.set(task.id, await Promise.all(inputs.map((input) => sha256Hex(input.data))));
  }
  const contextHashes = new Map(
    [...contexts].map(([condition, context]) => [condition, context.sha256]),
  );
  const planned = await planTrials(
    spec,
    options.trials ?? spec.trials,
    conditions,
    contextHashes,
    inputHashes,
  );
  const recorded =
    options.resultsPath === undefined
      ? new Map<string, TrialRecord>()
      : await readResults(options.resultsPath);
  const write =
    options.resultsPath === undefined ? async () => {} : resultsWriter(options.resultsPath);
  const limiter = rateLimiter(clock, spec.rate_limit?.calls_per_minute);
  const todo = planned.filter((trial) => {
    const record = recorded.get(trial.key);
    return record === undefined || record.error !== undefined;
  });
  // `reserved`: the calls of the trials started, so concurrent workers never pass max_calls.
  const run = {
    ran: 0,
    calls: 0,
    reserved: 0,
    tokens: 0,
    stopped: undefined as string | undefined,
  };

  const call = async (
    recipient: Recipient,
    request: Parameters<Recipient>[0],
  ): Promise<RecipientAnswer> => {
    await limiter.take();
    run.calls += 1;
    const answer = await recipient(request);
    run.tokens += answer.tokens ?? 0;
    return answer;
  };

  const budget = spec.budget;
  const overBudget = (trial: PlannedTrial): string | undefined => {
    if (budget?.max_calls !== undefined && run.reserved + callsOf(trial.task) > budget.max_calls) {
      return `the budget of ${budget.max_calls} calls (${run.reserved} made)`;
    }
    if (budget?.max_tokens !== undefined && run.tokens >= budget.max_tokens) {
      return `the budget of ${budget.max_tokens} tokens (${run.tokens} reported)`;
    }
    return undefined;
  };

  const runTrial = async (trial: PlannedTrial): Promise<void> => {
    const context = contexts.get(trial.condition);
    if (context === undefined) return;
    const prompt = redactSecrets(trial.task.prompt);
    const { inputs, redactions } = await readTaskInputs(trial.task, directory);
    const prepared = await prepareWorkspace(
      workspace,
      context,
      new Set(options.resultsPath === undefined ? [] : [resolve(options.resultsPath)]),
    );
    const seed = Number.parseInt(trial.key.slice(0, 8), 16);
    const base = {
      task: trial.task.id,
      condition: trial.condition,
      trial: trial.trial,
      inputs,
      workspace: prepared.directory,
      seed,
    };
    const record: TrialRecord = {
      version: 1,
      key: trial.key,
      recipient: trial.recipient,
      task: trial.task.id,
      condition: trial.condition,
      trial: trial.trial,
      pass: false,
      checks: [],
      ms: 0,
      answer: "",
      redactions: redactions + prompt.redactions.length,
    };
    try {
      const started = clock.now();
      const recipient = options.recipients[trial.recipient] as Recipient;
      const answer = await call(recipient, {
        ...base,
        recipient: trial.recipient,
        prompt: prompt.text,
      });
      record.ms = Math.round((clock.now() - started) * 1000) / 1000;
      record.answer = answer.text;
      if (answer.tokens !== undefined) record.tokens = answer.tokens;
      const { outcomes, judgeTokens } = await runChecks(trial.task, answer.text, (judge, text) =>
        call(options.judges?.[judge] as Recipient, { ...base, recipient: judge, prompt: text }),
      );
      record.checks = outcomes;
      record.pass = outcomes.every((outcome) => outcome.pass);
      if (judgeTokens !== undefined) record.judge_tokens = judgeTokens;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    } finally {
      await prepared.remove();
    }
    recorded.set(trial.key, record);
    run.ran += 1;
    await write(record);
    options.onTrial?.(record);
  };

  let next = 0;
  const worker = async () => {
    while (run.stopped === undefined && next < todo.length) {
      const trial = todo[next] as PlannedTrial;
      const reason = overBudget(trial);
      if (reason !== undefined) {
        run.stopped = reason;
        return;
      }
      next += 1;
      run.reserved += callsOf(trial.task);
      await runTrial(trial);
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency ?? 1 }, worker));

  const records = planned.flatMap((trial) => {
    const record = recorded.get(trial.key);
    return record === undefined ? [] : [record];
  });
  const result: EvalRun = {
    records,
    ran: run.ran,
    resumed: planned.length - todo.length,
    planned: planned.length,
    calls: run.calls,
    tokens: run.tokens,
    summary: summarize(records, Object.keys(spec.recipients), conditions),
  };
  if (run.stopped !== undefined) result.stopped = run.stopped;
  return result;
}
