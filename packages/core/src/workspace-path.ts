import { WorkspacePathError } from "./errors/workspace-path-error.ts";

/**
 * Checks a workspace-relative path and returns its segments. Refuses, before any storage is
 * touched: non-strings, empty paths, NUL bytes, backslashes (a Windows separator on some systems),
 * absolute paths (`/x`, `C:x`), and `..` segments anywhere. `.` and empty segments are dropped, so
 * `./docs//a.md` names `docs/a.md`.
 */
export function parseWorkspacePath(path: string): string[] {
  if (typeof path !== "string")
    throw new WorkspacePathError(String(path), "the path must be a string");
  if (path.length === 0) throw new WorkspacePathError(path, "the path is empty");
  if (path.includes("\0")) throw new WorkspacePathError(path, "the path contains a NUL byte");
  if (path.includes("\\")) throw new WorkspacePathError(path, "backslashes are not allowed");
  if (path.startsWith("/")) throw new WorkspacePathError(path, "absolute paths are not allowed");
  if (/^[A-Za-z]:/.test(path))
    throw new WorkspacePathError(path, "drive-letter paths are not allowed");
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") throw new WorkspacePathError(path, '".." segments are not allowed');
    segments.push(segment);
  }
  if (segments.length === 0) throw new WorkspacePathError(path, "the path names no file");
  return segments;
}
