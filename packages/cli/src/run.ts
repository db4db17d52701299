import { thrownMessage } from "@task-context/core/internal";
import { Command, CommanderError } from "commander";
import { CliError } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import { addDoctorCommand } from "./commands/doctor.ts";
import { addEvalCommand } from "./commands/eval.ts";
import { addInitCommand } from "./commands/init.ts";
import { addLintCommand } from "./commands/lint.ts";
import { addMcpCommand } from "./commands/mcp.ts";
import { addRenderCommand } from "./commands/render.ts";
import { addRunCommands } from "./commands/run-commands.ts";
import { addSageCommand } from "./commands/sage-generate.ts";
import { addServeCommand } from "./commands/serve.ts";
import { addValidateCommand } from "./commands/validate.ts";
import { VERSION } from "./version.ts";
import { CLOSED_PIPE_EXIT_CODE, outputFailedError, watchOutput } from "./watch-output.ts";

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

/**
 * Builds the `task-context` program, its commands writing to `io`; `exit` receives each action's
 * code; `outputClosed` stops long-running commands when their output's reader goes away.
 */
export function createProgram(
  io: CliIo,
  exit: (code: ExitCode) => void,
  argv: readonly string[] = [],
  outputClosed: AbortSignal = new AbortController().signal,
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
  const context = { io, exit, debug: argv.includes("--debug"), outputClosed };
  addInitCommand(program, context);
  addLintCommand(program, context);
  addValidateCommand(program, context);
  addRenderCommand(program, context);
  addSageCommand(program, context);
  addServeCommand(program, context);
  addRunCommands(program, context);
  addMcpCommand(program, context);
  addEvalCommand(program, context);
  addDoctorCommand(program, context);
  return program;
}

/** What each command registration receives. */
export interface CommandContext {
  io: CliIo;
  /** Sets the exit code of the command that ran. */
  exit: (code: ExitCode) => void;
  /** Whether `--debug` was given: errors print their stack. */
  debug: boolean;
  /**
   * Aborted when stdout or stderr fails, above all when the reader of a pipe went away
   * (`… | head -1`): a command that loops or streams stops there, and the run ends quietly.
   */
  outputClosed: AbortSignal;
}

/** Rewords commander's usage errors into the CLI's shape: what is wrong, then what to do. */
function usageFromCommander(
  error: CommanderError,
  argv: readonly string[],
  program: Command,
): CliError {
  const [first = "", ...rest] = error.message.replace(/^error: /, "").split("\n");
  const message = first.replace(/\.$/, "");
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(" ").trim())?.[1];
  const didYouMean = suggestion === undefined ? "" : `did you mean ${suggestion}? `;
  // The command the user typed, and its subcommand when it has some (`run create`, `sage generate`).
  const index = argv.findIndex((argument) => program.commands.some(named(argument)));
  const command = program.commands.find(named(argv[index]));
  const next = argv[index + 1];
  const subcommand = command?.commands.find(named(next));
  const path =
    command === undefined
      ? undefined
      : subcommand === undefined
        ? command.name()
        : `${command.name()} ${subcommand.name()}`;
  const help = path === undefined ? "task-context --help" : `task-context ${path} --help`;
  const hint =
    error.code === "commander.unknownCommand"
      ? `${didYouMean}run \`task-context --help\` to see the commands`
      : `${didYouMean}run \`${help}\` to see the usage`;
  return new CliError({ code: "CLI_USAGE", message, hint, cause: error });
}

/** Matches a commander command by its name. */
function named(name: string | undefined): (command: Command) => boolean {
  return (command) => command.name() === name;
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
 * input, 141 when the reader of its output went away (a closed pipe: nothing is printed, as for a
 * program ended by SIGPIPE). Never throws; errors are printed to `io.stderr`.
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
  const debug = argv.includes("--debug");
  const output = watchOutput(io);
  const exitCode = await runProgram(argv, io, debug, output.closed);
  const failure = await output.settle();
  if (failure === undefined) return exitCode;
  // The output failed: what the command would have said cannot be trusted to have arrived.
  const error = outputFailedError(failure);
  if (error === undefined) return CLOSED_PIPE_EXIT_CODE;
  if (failure.stream === "stdout") reportError(io, error, debug);
  return error.exitCode;
}

/** Parses `argv` and runs its command; resolves to the exit code, errors printed. */
async function runProgram(
  argv: readonly string[],
  io: CliIo,
  debug: boolean,
  outputClosed: AbortSignal,
): Promise<number> {
  let exitCode = 0;
  const program = createProgram(
    io,
    (code) => {
      exitCode = code ?? 0;
    },
    argv,
    outputClosed,
  );
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    // Whatever the command met after its output failed, `run` reports the failure instead.
    if (outputClosed.aborted) return 1;
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      if (error.code === "commander.helpDisplayed") return 0;
      // No command: commander printed the help on stderr; a usage error.
      if (error.code === "commander.help") return 2;
      if (error.code === "commander.executeSubCommandAsync") return error.exitCode;
      return reportError(io, usageFromCommander(error, argv, program), debug);
    }
    return reportError(io, error, debug);
  }
}
