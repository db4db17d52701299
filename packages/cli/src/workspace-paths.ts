import { resolve } from "node:path";
import { CONTEXT_FILENAME } from "@task-context/core";

/** The absolute folder a `[dir]` argument names (the working directory when absent). */
export function workspaceDirectory(cwd: string, dir: string | undefined): string {
  return resolve(cwd, dir ?? ".");
}

/** How to show CONTEXT.md of `[dir]`: `CONTEXT.md`, or `dir/CONTEXT.md`. */
export function shownContextPath(dir: string | undefined): string {
  return dir === undefined || dir === "." || dir === "./"
    ? CONTEXT_FILENAME
    : `${dir.replace(/\/+$/, "")}/${CONTEXT_FILENAME}`;
}
