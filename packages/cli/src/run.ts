import { thrownMessage } from "@task-context/core/internal";
import { Command, CommanderError } from "commander";
import { CliError } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import { addInitCommand } from "./commands/init.ts";
import { addLintCommand } from "./commands/lint.ts";
import { addMcpCommand } from "./commands/mcp.ts";
import { addRenderCommand } from "./commands/render.ts";
import { addRunCommands } from "./commands/run-commands.ts";
import { addSageCommand } from "./commands/sage-generate.ts";
import { addServeCommand } from "./commands/serve.ts";
import { addValidateCommand } from "./commands/validate.ts";
import { VERSION } from "./version.ts";

/** The width help text is wrapped to, whatever the terminal: help reads the same everywhere. */
const HELP_WIDTH = 100;

/** What a command's action returns: the exit code (0 when it returns nothing). */
export type ExitCode = number | undefined;

/** Applies the settings every command shares: output streams, help width, usage errors. */
export function configureCommand(command: Command, io: CliIo): Command {
  return command
    .exitOverride()
    .showHelpAfterError(false)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Usage errors are rethrown by exitOverride and printed by `run` in the one error shape.
      outputError: () => {},
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    });
}

/** `\nExamples:\n  $ task-context …` lines for a command's help. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}\n`;
}

/** Builds the `task-context` program, its commands writing to `io`; `exit` receives each action's code. */
export function createProgram(
  io: CliIo,
  exit: (code: ExitCode) => void,
  argv: readonly string[] = [],
): Command {
  const program = configureCommand(new Command("task-context"), io)
    .description(
      "Carry an agent's task context to every tool, subagent and remote agent it delegates to.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help for a command")
    .option("--debug", "print the stack trace of an error")
    .addHelpCommand(false)
    .addHelpText(
      "after",
      `${examples(
        "task-context init",
        "task-context lint",
        "task-context validate prompt.md .sage/context/T1.xml",
        "task-context render --for subagent --input task.json",
        "task-context serve --db :memory:",
        "task-context mcp .",
      )}\nDocs: https://github.com/task-context/task-context/blob/main/docs/cli.md\n`,
    );
  const context = { io, exit, debug: argv.includes("--debug") };
  addInitCommand(program, context);
  addLintCommand(program, context);
  addValidateCommand(program, context);
  addRenderCommand(program, context);
  addSageCommand(program, context);
  addServeCommand(program, context);
  addRunCommands(program, context);
  addMcpCommand(program, context);
  return program;
}

/** What each command registration receives. */
export interface CommandContext {
  io: CliIo;
  /** Sets the exit code of the command that ran. */
  exit: (code: ExitCode) => void;
  /** Whether `--debug` was given: errors print their stack. */
  debug: boolean;
}

/** Rewords commander's usage errors into the CLI's shape: what is wrong, then what to do. */
function usageFromCommander(error: CommanderError, argv: readonly string[]): CliError {
  const [first = "", ...rest] = error.message.replace(/^error: /, "").split("\n");
  const message = first.replace(/\.$/, "");
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(" ").trim())?.[1];
  const didYouMean = suggestion === undefined ? "" : `did you mean ${suggestion}? `;
  const known = ["init", "lint", "validate", "render", "sage", "serve", "run", "mcp"];
  const index = argv.findIndex((argument) => known.includes(argument));
  const command = argv[index];
  const subcommands = ["generate", "create", "status", "events"];
  const next = argv[index + 1];
  const path =
    (command === "sage" || command === "run") && next !== undefined && subcommands.includes(next)
      ? `${command} ${next}`
      : command;
  const help = path === undefined ? "task-context --help" : `task-context ${path} --help`;
  const hint =
    error.code === "commander.unknownCommand"
      ? `${didYouMean}run \`task-context --help\` to see the commands`
      : `${didYouMean}run \`${help}\` to see the usage`;
  return new CliError({ code: "CLI_USAGE", message, hint, cause: error });
}

/** Prints an error as `task-context: …` and `hint: …` (and the stack with `--debug`); returns the exit code. */
export function reportError(io: CliIo, error: unknown, debug: boolean): number {
  const failure = CliError.isInstance(error)
    ? error
    : new CliError({
        code: "CLI_SERVICE",
        message: thrownMessage(error, "an unexpected value was thrown").replace(/\.$/, ""),
        hint: "run again with --debug and report the stack trace if this looks like a bug",
        exitCode: 1,
        cause: error,
      });
  io.stderr.write(`task-context: ${failure.message}\nhint: ${failure.hint}\n`);
  if (debug) {
    const stack = (CliError.isInstance(error) ? (error.cause ?? error) : error) as {
      stack?: unknown;
    };
    if (typeof stack?.stack === "string") io.stderr.write(`${stack.stack}\n`);
  }
  return failure.exitCode;
}

/**
 * Runs the `task-context` command line `argv` (without `node` and the script) against `io` and
 * resolves to the exit code: 0 success, 1 checked and found wrong, 2 usage error or unreadable
 * input. Never throws; errors are printed to `io.stderr`.
 *
 * @example
 * ```ts source="../examples/run.ts"
 * import { run } from "@task-context/cli";
 *
 * process.exitCode = await run(["lint", "."], {
 *   stdout: process.stdout,
 *   stderr: process.stderr,
 *   stdin: process.stdin,
 *   env: process.env,
 *   cwd: process.cwd(),
 * });
 * ```
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = createProgram(
    io,
    (code) => {
      exitCode = code ?? 0;
    },
    argv,
  );
  const debug = argv.includes("--debug");
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      if (error.code === "commander.helpDisplayed") return 0;
      // No command: commander printed the help on stderr; a usage error.
      if (error.code === "commander.help") return 2;
      if (error.code === "commander.executeSubCommandAsync") return error.exitCode;
      return reportError(io, usageFromCommander(error, argv), debug);
    }
    return reportError(io, error, debug);
  }
}
