import { Command } from "commander";
import { CliError, usageError } from "../cli-error.ts";
import { colorsFor } from "../cli-io.ts";
import { readInput } from "../read-input.ts";
import { type CommandContext, configureCommand, examples, reportError } from "../run.ts";
import {
  checkText,
  type FileVerdict,
  SCHEMA_CHOICES,
  schemaFromOption,
  UndetectedSchemaError,
} from "../validate/check-file.ts";

/** A file that could not be read, or whose schema could not be told, in `--json` output. */
interface FileFailure extends FileVerdict {
  error: string;
}

/**
 * `task-context validate <file…>`: context blocks, Sage XML, limits files and JSON documents
 * against the published schemas; exit 0 valid, 1 invalid, 2 could not read.
 */
export function addValidateCommand(
  program: Command,
  { io, exit, debug, outputClosed }: CommandContext,
): void {
  const command = configureCommand(new Command("validate"), io)
    .description(
      "validate context blocks, Sage XML, limits files, work items and artifacts against the published schemas",
    )
    .argument("<file...>", "files to check; - reads stdin")
    .option("--schema <name>", `the schema, when not detected: ${SCHEMA_CHOICES.join(", ")}`)
    .option("--json", "print { files: [{ file, schema, valid, issues }] } as JSON")
    .addHelpText(
      "after",
      `
Detection: a .xml file or one starting with <subagent-context> is Sage XML; a prompt with a
<context> block, or YAML with its keys (project, conventions), is a context block; YAML named
context-limits.yaml or with defaults/overrides is a limits file; JSON is the schema whose
required keys it has.

Exit codes: 0 every file valid, 1 a file invalid, 2 a file could not be read.
${examples(
  "task-context validate prompt.md",
  "task-context validate .sage/context/*.xml .sage/config/context-limits.yaml",
  "task-context validate item.json --schema work-item --json",
  "pbpaste | task-context validate -",
)}`,
    )
    .action(async (files: string[], options: { schema?: string; json?: boolean }) => {
      const schema = options.schema === undefined ? undefined : schemaFromOption(options.schema);
      if (options.schema !== undefined && schema === undefined) {
        throw usageError(
          `unknown schema ${JSON.stringify(options.schema)}`,
          `pass --schema with one of: ${SCHEMA_CHOICES.join(", ")}`,
        );
      }
      if (files.filter((file) => file === "-").length > 1) {
        throw usageError("stdin (-) can be read only once", "pass - at most once");
      }
      const colors = colorsFor(io.stdout, io.env);
      const verdicts: FileVerdict[] = [];
      let worst = 0;
      for (const file of files) {
        // Nobody reads the verdicts any more (`… | head -1`): stop, as `run` ends quietly.
        if (outputClosed.aborted) break;
        let verdict: FileVerdict;
        try {
          const input = await readInput(io, file);
          try {
            verdict = checkText(input.name, input.text, schema);
          } catch (error) {
            if (!(error instanceof UndetectedSchemaError)) throw error;
            throw new CliError({
              code: "CLI_USAGE",
              exitCode: 1,
              message: `cannot tell which schema ${input.name} follows: ${error.message}`,
              hint: `pass --schema with one of: ${SCHEMA_CHOICES.join(", ")}`,
            });
          }
        } catch (error) {
          const code =
            options.json === true
              ? CliError.isInstance(error)
                ? error.exitCode
                : 1
              : reportError(io, error, debug);
          worst = Math.max(worst, code);
          if (options.json === true) {
            const failure: FileFailure = {
              file: file === "-" ? "<stdin>" : file,
              schema: schema ?? null,
              valid: false,
              issues: [],
              error: error instanceof Error ? error.message : String(error),
            };
            verdicts.push(failure);
          }
          continue;
        }
        verdicts.push(verdict);
        worst = Math.max(worst, verdict.valid ? 0 : 1);
        if (options.json === true) continue;
        for (const issue of verdict.issues) {
          const pointer = issue.path === "" ? "" : ` ${colors.dim(`(${issue.path})`)}`;
          io.stdout.write(
            `${verdict.file}:${issue.line}:${issue.column}: ${colors.red("error")} ${issue.message}${pointer}\n`,
          );
        }
        if (verdict.warning !== undefined) {
          io.stdout.write(`${verdict.file}: ${colors.yellow("warning")} ${verdict.warning}\n`);
        }
        const count = verdict.issues.length;
        io.stdout.write(
          verdict.valid
            ? `${verdict.file}: ${colors.green("valid")} ${verdict.schema}\n`
            : verdict.unparsable !== undefined
              ? `${verdict.file}: ${colors.red("invalid")}, could not be parsed as ${verdict.unparsable}\n`
              : `${verdict.file}: ${colors.red("invalid")} ${verdict.schema}, ${count} ${count === 1 ? "issue" : "issues"}\n`,
        );
      }
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify({ files: verdicts }, null, 2)}\n`);
      }
      exit(worst);
    });
  program.addCommand(command);
}
