import { lstat, mkdir, rmdir, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { CONTEXT_FILENAME, NotRegularFileError } from "@task-context/core";
import { systemErrorCode, thrownMessage } from "@task-context/core/internal";
import { nodeWorkspace } from "@task-context/core/node";
import { CONTEXT_MD_TEMPLATE } from "@task-context/protocols/context-md";
import { Command, Option } from "commander";
import { CliError, usageError } from "../cli-error.ts";
import type { CliIo } from "../cli-io.ts";
import { type CommandContext, configureCommand, examples } from "../run.ts";
import { SERVICE_RUNTIMES, type ServiceRuntime, serviceProject } from "../service-project.ts";
import { shownContextPath, workspaceDirectory } from "../workspace-paths.ts";

/**
 * `task-context init [dir]`: writes CONTEXT.md from the template, never over one without `--force`;
 * with `--service <runtime>`, the delivery service's project instead, never over any file.
 */
export function addInitCommand(program: Command, { io, exit }: CommandContext): void {
  const command = configureCommand(new Command("init"), io)
    .description(
      "write a CONTEXT.md from the template (never over one without --force), or the delivery service's project (--service)",
    )
    .argument("[dir]", "the workspace folder, or the project's (default: the current folder)")
    .option("-f, --force", "overwrite an existing CONTEXT.md")
    .addOption(
      new Option(
        "--service <runtime>",
        "write the delivery service's project instead, never over a file",
      ).choices(SERVICE_RUNTIMES),
    )
    .addHelpText(
      "after",
      examples(
        "task-context init",
        "task-context init agents/launch",
        "task-context init --force",
        "task-context init --service workers my-service",
        "task-context init --service node my-service",
      ),
    )
    .action(
      async (dir: string | undefined, options: { force?: boolean; service?: ServiceRuntime }) => {
        if (options.service !== undefined) {
          if (options.force === true) {
            throw usageError(
              "--force replaces CONTEXT.md only: the service's project is never written over a file",
              "leave out --force, and write the project into a new folder",
            );
          }
          await writeServiceProject(io, dir, options.service);
          exit(0);
          return;
        }
        await writeContextMd(io, dir, options.force === true);
        io.stdout.write(
          `Wrote ${shownContextPath(dir)}. Fill in its sections, then check it with \`task-context lint${dir === undefined ? "" : ` ${dir}`}\`.\n`,
        );
        exit(0);
      },
    );
  program.addCommand(command);
}

/** Writes CONTEXT.md from the template into `dir`; over an existing one only with `force`. */
async function writeContextMd(io: CliIo, dir: string | undefined, force: boolean): Promise<void> {
  const directory = workspaceDirectory(io.cwd, dir);
  const shown = shownContextPath(dir);
  try {
    await mkdir(directory, { recursive: true });
    if (force) {
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
}

/** How `path` of the project in `dir` is shown: `dir/path`, or `path` in the current folder. */
function shownPath(dir: string | undefined, path: string): string {
  return dir === undefined || dir === "." || dir === "./"
    ? path
    : `${dir.replace(/\/+$/, "")}/${path}`;
}

/**
 * Writes the service's project for `runtime` into `dir`: all of its files or none. Refuses
 * (`CLI_WRITE_REFUSED`, nothing written) when any of them is there already, whatever it is.
 */
async function writeServiceProject(
  io: CliIo,
  dir: string | undefined,
  runtime: ServiceRuntime,
): Promise<void> {
  const directory = workspaceDirectory(io.cwd, dir);
  const project = await serviceProject(runtime);
  const inTheWay: string[] = [];
  for (const { path } of project.files) {
    // Anything by that name, a dangling symbolic link included; a file where a folder of the
    // path should be fails below, when the folder is made.
    const present = await lstat(join(directory, path)).then(
      () => true,
      () => false,
    );
    if (present) inTheWay.push(shownPath(dir, path));
  }
  if (inTheWay.length > 0) throw alreadyThere(inTheWay, runtime);

  // Exclusive creation, file by file; on any failure, what this run wrote is removed again.
  const written: string[] = [];
  const created: { first: string; last: string }[] = [];
  let current = "";
  let making: "folder" | "file" = "folder";
  try {
    for (const { path, text } of project.files) {
      current = path;
      const target = join(directory, path);
      making = "folder";
      const first = await mkdir(dirname(target), { recursive: true });
      if (first !== undefined) created.push({ first, last: dirname(target) });
      making = "file";
      await writeFile(target, text, { flag: "wx" });
      written.push(target);
    }
  } catch (error) {
    for (const file of written) await unlink(file).catch(() => {});
    for (const { first, last } of created.reverse()) await removeCreatedFolders(first, last);
    const code = systemErrorCode(error);
    if (making === "file" && code === "EEXIST") {
      throw alreadyThere([shownPath(dir, current)], runtime);
    }
    const reason =
      making === "folder" && (code === "EEXIST" || code === "ENOTDIR")
        ? `${shownPath(dir, dirname(current))} is not a folder`
        : thrownMessage(error, "unknown error");
    throw new CliError({
      code: "CLI_WRITE_REFUSED",
      message: `cannot write ${shownPath(dir, current)}: ${reason}`,
      hint: "nothing was written: move what is in the way, or check that the folder is writable",
      cause: error,
    });
  }

  const cd = dir === undefined || dir === "." || dir === "./" ? [] : [`cd ${dir}`];
  const commands: [string, string?][] = [...cd.map((line): [string] => [line]), ...project.next];
  const width = Math.max(...commands.map(([line]) => line.length));
  io.stdout.write(
    [
      `Wrote ${project.title}:`,
      ...project.files.map(({ path }) => `  ${shownPath(dir, path)}`),
      `Next (${shownPath(dir, "README.md")} says more):`,
      ...commands.map(([line, note]) =>
        note === undefined ? `  ${line}` : `  ${line.padEnd(width)}   # ${note}`,
      ),
      "",
    ].join("\n"),
  );
}

/** The refusal when files of the project are there already. */
function alreadyThere(paths: string[], runtime: ServiceRuntime): CliError {
  const [verb, pronoun] = paths.length === 1 ? ["exists", "it"] : ["exist", "them"];
  return new CliError({
    code: "CLI_WRITE_REFUSED",
    message: `${paths.join(", ")} already ${verb}`,
    hint: `nothing was written: run \`task-context init --service ${runtime} <new folder>\`, or move ${pronoun} out of the way`,
  });
}

/** Removes the folders `mkdir` created, from `last` up to `first`, while they are empty. */
async function removeCreatedFolders(first: string, last: string): Promise<void> {
  for (let folder = last; ; folder = dirname(folder)) {
    const removed = await rmdir(folder).then(
      () => true,
      () => false,
    );
    if (!removed || folder === first || dirname(folder) === folder) return;
  }
}
