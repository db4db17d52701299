import type { Workspace } from "@task-context/core";
import {
  requireObject,
  requireString,
  requireWholeNumber,
  requireWorkspace,
} from "@task-context/core/internal";
import { ContextPathOutsideProjectError } from "../errors/context-path-outside-project-error.ts";
import type { ContextBlock } from "../schemas/context-block.ts";
import { DEFAULT_MAX_FILE_BYTES, readTextFile } from "./read-text-file.ts";

/** Where receivers find the project's conventions when a block names no file. */
export const CONVENTIONS_PATH = "docs/CONVENTIONS.md";

/** Options for {@link readFullConventions}. */
export interface ReadFullConventionsOptions {
  /** Read at most this many bytes (default 65 536); the rest is cut off with a warning. */
  maxBytes?: number;
}

/** The full conventions file, read on request. */
export interface FullConventions {
  /** The workspace path that was read, such as `docs/CONVENTIONS.md`. */
  path: string;
  /** The file's text (UTF-8), cut to `maxBytes`. */
  text: string;
  /** The file's full size in bytes. */
  size: number;
  /** True when the file was longer than `maxBytes`. */
  truncated: boolean;
  /** Says what was cut or replaced, when anything was. */
  warning?: string;
}

/**
 * Reads the full conventions file a context block points to (Context Protocol v1, receivers'
 * rule 4: "if summary insufficient, read full file from `conventions.fullPath`"), through the
 * workspace and only inside it.
 *
 * `conventions.fullPath` is absolute in the sender's file system; it is mapped to a workspace
 * path when it lies under `project.path` (`/Users/dev/app/docs/CONVENTIONS.md` with project path
 * `/Users/dev/app` reads `docs/CONVENTIONS.md`). A relative `fullPath` is taken relative to the
 * project root. Without `fullPath`, `docs/CONVENTIONS.md` is read.
 *
 * @throws {ContextPathOutsideProjectError} when `fullPath` is outside the project root.
 * @throws the workspace's errors (`FileNotFoundError`, `NotRegularFileError`, …) when the file
 *   cannot be read.
 * @throws {ArgumentError} when `block`, `workspace` or `options` has the wrong type.
 *
 * @example
 * ```ts
 * import { memoryWorkspace } from "@task-context/core";
 * import { parseContextBlock, readFullConventions } from "@task-context/protocols/context-block";
 *
 * const workspace = memoryWorkspace({ "docs/CONVENTIONS.md": "# Conventions\n\nESM only.\n" });
 * const parsed = parseContextBlock(
 *   "<context>\nproject:\n  path: /srv/app\n  stack: hono\nconventions:\n  summary: ESM only.\n  fullPath: /srv/app/docs/CONVENTIONS.md\n</context>\n\nGo.",
 * );
 * if (parsed.status === "found") {
 *   const { text } = await readFullConventions(parsed.block, workspace); // "# Conventions…"
 * }
 * ```
 */
export async function readFullConventions(
  block: Pick<ContextBlock, "project" | "conventions">,
  workspace: Workspace,
  options: ReadFullConventionsOptions = {},
): Promise<FullConventions> {
  requireObject("block", block);
  requireObject("block.project", block.project);
  requireObject("block.conventions", block.conventions);
  requireString("block.project.path", block.project.path);
  requireWorkspace("workspace", workspace);
  requireObject("options", options);
  const maxBytes = requireWholeNumber("maxBytes", options.maxBytes ?? DEFAULT_MAX_FILE_BYTES, 1);
  const fullPath = block.conventions.fullPath;
  if (fullPath !== undefined) requireString("block.conventions.fullPath", fullPath);
  const path =
    fullPath === undefined
      ? CONVENTIONS_PATH
      : toWorkspacePath(fullPath, block.project.path, "conventions.fullPath");
  const file = await readTextFile(workspace, path, maxBytes);
  const notes: string[] = [];
  if (file.truncated) {
    notes.push(
      `${path} was truncated from ${file.size} to ${maxBytes} bytes (limit ${maxBytes}); the rest was not read.`,
    );
  }
  if (file.replaced)
    notes.push(`${path} is not valid UTF-8; invalid bytes were replaced with U+FFFD.`);
  const result: FullConventions = {
    path,
    text: file.text,
    size: file.size,
    truncated: file.truncated,
  };
  if (notes.length > 0) result.warning = notes.join(" ");
  return result;
}

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

/**
 * Maps a path from a context block to a workspace-relative path: an absolute path must lie under
 * `projectPath`; a relative one is taken relative to the project root and may not climb out of
 * it. Both are normalised lexically (`.` and `..`); the workspace then refuses symbolic links
 * that lead out.
 */
export function toWorkspacePath(path: string, projectPath: string, field: string): string {
  const windows = WINDOWS_ABSOLUTE.test(projectPath);
  const absolute = path.startsWith("/") || WINDOWS_ABSOLUTE.test(path);
  const outside = () => new ContextPathOutsideProjectError({ field, path, projectPath });
  if (!absolute) {
    const relative = normalize(split(path, windows));
    if (relative === undefined) throw outside();
    return relative.length === 0 ? "." : relative.join("/");
  }
  if (WINDOWS_ABSOLUTE.test(path) !== windows) throw outside();
  const root = normalize(split(projectPath, windows)) ?? [];
  const target = normalize(split(path, windows));
  if (target === undefined || target.length < root.length) throw outside();
  const same = (a: string, b: string) => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
  if (!root.every((segment, index) => same(segment, target[index] as string))) throw outside();
  const relative = target.slice(root.length);
  return relative.length === 0 ? "." : relative.join("/");
}

function split(path: string, windows: boolean): string[] {
  return path.split(windows ? /[\\/]/ : "/");
}

/** Resolves `.`, `..` and empty segments; undefined when `..` climbs above the first segment. */
function normalize(segments: string[]): string[] | undefined {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(segment);
  }
  return out;
}
