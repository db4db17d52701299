import { describeArgument } from "./arguments.ts";
import { WorkspacePathError } from "./errors/workspace-path-error.ts";

/**
 * Checks a workspace-relative path and returns its segments. Refuses, before any storage is
 * touched: non-strings, empty paths, NUL bytes, backslashes (a Windows separator on some systems),
 * absolute paths (`/x`, `C:x`), and `..` segments anywhere. `.` and empty segments are dropped, so
 * `./docs//a.md` names `docs/a.md`.
 */
export function parseWorkspacePath(path: string): string[] {
  const refuse = (problem: string) => new WorkspacePathError({ path: String(path), problem });
  if (typeof path !== "string")
    throw refuse(`the path must be a string, not ${describeArgument(path)}`);
  if (path.length === 0) throw refuse("the path is empty");
  if (path.includes("\0")) throw refuse("the path contains a NUL byte");
  if (path.includes("\\")) throw refuse("backslashes are not allowed");
  if (path.startsWith("/")) throw refuse("absolute paths are not allowed");
  if (/^[A-Za-z]:/.test(path)) throw refuse("drive-letter paths are not allowed");
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") throw refuse('".." segments are not allowed');
    segments.push(segment);
  }
  if (segments.length === 0) throw refuse("the path names no file");
  return segments;
}
