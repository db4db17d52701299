import { writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Command } from "commander";
import { CliError } from "../cli-error.ts";
import { colorsFor } from "../cli-io.ts";
import { parseEvalSpecText } from "../eval/eval-spec.ts";
import { EvaluationError } from "../eval/evaluation-error.ts";
import { renderSummaryTable } from "../eval/format-summary.ts";
import { loadRecipients } from "../eval/load-recipients.ts";
import { renderHtmlReport } from "../eval/render-html-report.ts";
import { runEval } from "../eval/run-eval.ts";
import { explainLibraryError } from "../library-error.ts";
import { readInput } from "../read-input.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { positiveInteger } from "./lint.ts";

interface EvalOptions {
  results?: string;
  report?: string;
  trials?: number;
}

/** An eval's own error as the CLI's, exit 2: a spec that is not valid, a results file that is not one. */
function explainEvaluationError(error: unknown): unknown {
  if (!EvaluationError.isInstance(error)) return explainLibraryError(error);
  return new CliError({
    code: error.code === "EVAL_SPEC_INVALID" ? "CLI_EVAL_SPEC_INVALID" : "CLI_UNREADABLE_INPUT",
    message: error.message.replace(/;.*$/s, ""),
    hint: /; (.*)$/s.exec(error.message)?.[1] ?? "see docs/eval.md",
    cause: error,
  });
}

/**
 * `task-context eval <spec>`: runs the spec's tasks under each condition, prints the table,
 * writes the results file (resumed on the next run) and, with `--report`, the HTML report.
 */
export function addEvalCommand(program: Command, { io, exit }: CommandContext): void {
  const command = configureCommand(new Command("eval"), io)
    .description(
      "measure per recipient whether the task context (or a view) helps, hurts or makes no difference",
    )
    .argument("<spec>", "the eval spec (YAML or JSON)")
    .option(
      "--results <file>",
      "the trials, one JSON line each; resumed when run again (default <spec>.results.jsonl)",
    )
    .option("--report <file>", "also write a self-contained HTML report")
    .option(
      "--trials <n>",
      "trials per task, recipient and condition (overrides the spec)",
      positiveInteger,
    )
    .addHelpText(
      "after",
      examples(
        "task-context eval eval.yaml",
        "task-context eval eval.yaml --trials 30 --report eval.html",
      ),
    )
    .action(async (specPath: string, options: EvalOptions) => {
      try {
        const input = await readInput(io, specPath);
        const spec = parseEvalSpecText(input.text, input.name);
        const directory = specPath === "-" ? io.cwd : dirname(resolve(io.cwd, specPath));
        const recipients = await loadRecipients(spec.recipients, directory, "recipients");
        const judges = await loadRecipients(spec.judges ?? {}, directory, "judges");
        const resultsPath = resolve(
          io.cwd,
          options.results ??
            `${specPath === "-" ? "eval" : specPath.replace(/\.(ya?ml|json)$/i, "")}.results.jsonl`,
        );
        const run = await runEval(spec, {
          recipients,
          judges,
          directory,
          resultsPath,
          ...(options.trials === undefined ? {} : { trials: options.trials }),
        });
        io.stdout.write(renderSummaryTable(run.summary));
        const colors = colorsFor(io.stdout, io.env);
        io.stdout.write(
          colors.dim(
            `${run.records.length} of ${run.planned} trials recorded (${run.ran} run now, ${run.resumed} resumed) in ${resultsPath}\n`,
          ),
        );
        if (options.report !== undefined) {
          const reportPath = resolve(io.cwd, options.report);
          await writeFile(reportPath, renderHtmlReport(run));
          io.stdout.write(`report: ${reportPath}\n`);
        }
        if (run.stopped !== undefined) {
          throw new CliError({
            code: "CLI_EVAL_STOPPED",
            message: `the run stopped at ${run.stopped}: ${run.records.length} of ${run.planned} trials recorded`,
            hint: "raise the spec's budget, or run again to go on: recorded trials are not run again",
            exitCode: 1,
          });
        }
        exit(0);
      } catch (error) {
        throw explainEvaluationError(error);
      }
    });
  program.addCommand(command);
}
