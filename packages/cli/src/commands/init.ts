import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CONTEXT_FILENAME, NotRegularFileError } from "@task-context/core";
import { systemErrorCode, thrownMessage } from "@task-context/core/internal";
import { nodeWorkspace } from "@task-context/core/node";
import { CONTEXT_MD_TEMPLATE } from "@task-context/protocols/context-md";
import { Command } from "commander";
import { CliError } from "../cli-error.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { shownContextPath, workspaceDirectory } from "../workspace-paths.ts";

/** `task-context init [dir]`: writes CONTEXT.md from the template, never over one without `--force`. */
export function addInitCommand(program: Command, { io, exit }: CommandContext): void {
  const command = configureCommand(new Command("init"), io)
    .description("write a CONTEXT.md from the template (never overwrites one without --force)")
    .argument("[dir]", "the workspace folder (default: the current folder)")
    .option("-f, --force", "overwrite an existing CONTEXT.md")
    .addHelpText(
      "after",
      examples("task-context init", "task-context init agents/launch", "task-context init --force"),
    )
    .action(async (dir: string | undefined, options: { force?: boolean }) => {
      const directory = workspaceDirectory(io.cwd, dir);
      const shown = shownContextPath(dir);
      try {
        await mkdir(directory, { recursive: true });
        if (options.force === true) {
          // Through the workspace rules: a whole file or none, renamed over whatever is there
          // (a symbolic link or a FIFO included), never written through a link.
          await nodeWorkspace(directory).writeFile(CONTEXT_FILENAME, CONTEXT_MD_TEMPLATE);
        } else {
          // Exclusive creation: never over an existing name, a dangling symbolic link included.
          await writeFile(join(directory, CONTEXT_FILENAME), CONTEXT_MD_TEMPLATE, { flag: "wx" });
        }
      } catch (error) {
        if (systemErrorCode(error) === "EEXIST") {
          throw new CliError({
            code: "CLI_WRITE_REFUSED",
            message: `${shown} already exists`,
            hint: "edit it, or pass --force to replace it with the template",
          });
        }
        if (NotRegularFileError.isInstance(error)) {
          throw new CliError({
            code: "CLI_WRITE_REFUSED",
            message: `cannot write ${shown}: it is a ${error.kind.replace("-", " ")}`,
            hint: "move it out of the way, then run `task-context init` again",
            cause: error,
          });
        }
        throw new CliError({
          code: "CLI_WRITE_REFUSED",
          message: `cannot write ${shown}: ${thrownMessage(error, "unknown error")}`,
          hint: "check that the folder is writable",
          cause: error,
        });
      }
      io.stdout.write(
        `Wrote ${shown}. Fill in its sections, then check it with \`task-context lint${dir === undefined ? "" : ` ${dir}`}\`.\n`,
      );
      exit(0);
    });
  program.addCommand(command);
}
