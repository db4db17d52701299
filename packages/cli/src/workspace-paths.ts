import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { CONTEXT_FILENAME } from "@task-context/core";
import { CliError } from "./cli-error.ts";

/** The absolute folder a `[dir]` argument names (the working directory when absent). */
export function workspaceDirectory(cwd: string, dir: string | undefined): string {
  return resolve(cwd, dir ?? ".");
}

/**
 * The absolute workspace folder a `[dir]` argument names, once it is known to be a folder: one
 * that does not exist, or a file, is refused (`CLI_UNREADABLE_INPUT`, exit 2) with what is wrong,
 * rather than reported as a folder without CONTEXT.md.
 */
export async function existingWorkspace(cwd: string, dir: string | undefined): Promise<string> {
  const directory = workspaceDirectory(cwd, dir);
  const shown = dir ?? ".";
  const found = await stat(directory).catch(() => undefined);
  if (found === undefined) {
    throw new CliError({
      code: "CLI_UNREADABLE_INPUT",
      message: `the folder ${shown} does not exist`,
      hint: `check the path, or write the folder and its CONTEXT.md with \`task-context init ${shown}\``,
    });
  }
  if (!found.isDirectory()) {
    throw new CliError({
      code: "CLI_UNREADABLE_INPUT",
      message: `${shown} is not a folder`,
      hint: "give the workspace folder that holds CONTEXT.md (`task-context init` writes one)",
    });
  }
  return directory;
}

/** How to show CONTEXT.md of `[dir]`: `CONTEXT.md`, or `dir/CONTEXT.md`. */
export function shownContextPath(dir: string | undefined): string {
  return dir === undefined || dir === "." || dir === "./"
    ? CONTEXT_FILENAME
    : `${dir.replace(/\/+$/, "")}/${CONTEXT_FILENAME}`;
}
