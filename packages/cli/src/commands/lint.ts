import { DEFAULT_MAX_CHARS } from "@task-context/core";
import { type ContextMdIssue, lintContextMd } from "@task-context/protocols/context-md";
import { Command, InvalidArgumentError } from "commander";
import { colorsFor } from "../cli-io.ts";
import { readContextMd } from "../read-context-md.ts";
import { readInput } from "../read-input.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { existingWorkspace, shownContextPath } from "../workspace-paths.ts";

/** Parses a whole number ≥ 1 for an option, or says what is wrong. */
export function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1) {
    throw new InvalidArgumentError("expected a whole number of at least 1");
  }
  return parsed;
}

/**
 * CONTEXT.md's length as the loader counts it, and so as `render` reports it and the over-limit
 * rule checks it: UTF-16 units, without a BOM and surrounding whitespace (DESIGN rules 3 and 4).
 */
function deliveredLength(text: string): number {
  return text.replace(/^\uFEFF/, "").trim().length;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : word === "info" ? "" : "s"}`;
}

/** `task-context lint [dir]`: CONTEXT.md's sections, size, placeholders and secrets; exit 0/1. */
export function addLintCommand(program: Command, { io, exit }: CommandContext): void {
  const command = configureCommand(new Command("lint"), io)
    .description(
      "check CONTEXT.md: sections, size, template placeholders, secrets (exit 1 on an error)",
    )
    .argument("[dir]", "the workspace folder, or - to read CONTEXT.md from stdin")
    .option(
      "--max-chars <n>",
      `the delivery limit in characters (default ${DEFAULT_MAX_CHARS})`,
      positiveInteger,
    )
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      examples(
        "task-context lint",
        "task-context lint agents/launch --json",
        "cat CONTEXT.md | task-context lint -",
      ),
    )
    .action(async (dir: string | undefined, options: { maxChars?: number; json?: boolean }) => {
      const shown = dir === "-" ? "<stdin>" : shownContextPath(dir);
      const text =
        dir === "-"
          ? (await readInput(io, "-")).text
          : await readContextMd(await existingWorkspace(io.cwd, dir), shown);
      const result = lintContextMd(
        text,
        options.maxChars === undefined ? {} : { maxChars: options.maxChars },
      );
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify({ file: shown, ...result }, null, 2)}\n`);
        exit(result.ok ? 0 : 1);
        return;
      }
      const colors = colorsFor(io.stdout, io.env);
      const paint = (issue: ContextMdIssue) =>
        issue.severity === "error"
          ? colors.red(issue.severity)
          : issue.severity === "warning"
            ? colors.yellow(issue.severity)
            : colors.blue(issue.severity);
      for (const issue of result.issues) {
        const where = issue.line === undefined ? shown : `${shown}:${issue.line}:1`;
        io.stdout.write(
          `${where}: ${paint(issue)} ${issue.message} ${colors.dim(`(${issue.rule})`)}\n`,
        );
      }
      const count = (severity: ContextMdIssue["severity"]) =>
        result.issues.filter((issue) => issue.severity === severity).length;
      const errors = count("error");
      const warnings = count("warning");
      const infos = count("info");
      const summary =
        result.issues.length === 0
          ? `${shown}: no problems (${deliveredLength(text)} characters)`
          : `${shown}: ${plural(errors, "error")}, ${plural(warnings, "warning")}, ${plural(infos, "info")}`;
      io.stdout.write(`${errors > 0 ? colors.red(summary) : colors.green(summary)}\n`);
      exit(result.ok ? 0 : 1);
    });
  program.addCommand(command);
}
