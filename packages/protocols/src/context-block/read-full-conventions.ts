import type { Workspace } from "@task-context/core";
import {
  decodeUtf8,
  requireObject,
  requireString,
  requireWholeNumber,
  requireWorkspace,
} from "@task-context/core/internal";
import { ContextPathOutsideProjectError } from "../errors/context-path-outside-project-error.ts";
import type { ContextBlock } from "../schemas/context-block.ts";

/** Where receivers find the project's conventions when a block names no file. */
export const CONVENTIONS_PATH = "docs/CONVENTIONS.md";

/**
 * A bounded read of a workspace file: its text (UTF-8 without byte order mark, cut to the limit,
 * never inside a character), its full size, whether it was cut, whether bad bytes were replaced.
 */
export interface TextFile {
  path: string;
  text: string;
  size: number;
  truncated: boolean;
  replaced: boolean;
}

/** Reads at most `maxBytes` of a workspace file as text; the workspace's errors propagate. */
export async function readTextFile(
  workspace: Workspace,
  path: string,
  maxBytes: number,
): Promise<TextFile> {
  const { bytes, size } = await workspace.readFile(path, { maxBytes });
  const truncated = size > bytes.length;
  return { path, size, truncated, ...decodeUtf8(bytes, !truncated) };
}

/** Options for {@link readFullConventions}. */
export interface ReadFullConventionsOptions {
  /** Read at most this many bytes (default 65 536); the rest is cut off with a warning. */
  maxBytes?: number;
}

/**
 * The full conventions file, read on request: the workspace `path` that was read (such as
 * `docs/CONVENTIONS.md`), its `text` (UTF-8, cut to `maxBytes`), its full `size` in bytes, whether
 * it was `truncated`, and a `warning` when anything was cut or replaced.
 */
export interface FullConventions {
  path: string;
  text: string;
  size: number;
  truncated: boolean;
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
 * ```ts source="../../examples/read-full-conventions.ts"
 * import { memoryWorkspace } from "@task-context/core";
 * import { parseContextBlock, readFullConventions } from "@task-context/protocols/context-block";
 *
 * const workspace = memoryWorkspace({ "docs/CONVENTIONS.md": "# Conventions\n\nESM only.\n" });
 * const parsed = parseContextBlock(
 *   "<context>\nproject:\n  path: /srv/app\n  stack: hono\nconventions:\n  summary: ESM only.\n  fullPath: /srv/app/docs/CONVENTIONS.md\n</context>\n\nAdd a health route.",
 * );
 * if (parsed.status === "found") {
 *   const { path, text } = await readFullConventions(parsed.block, workspace);
 *   console.log(path, text); // "docs/CONVENTIONS.md" "# Conventions\n\nESM only.\n"
 * }
 * ```
 */
export async function readFullConventions(
  block: Pick<ContextBlock, "project" | "conventions">,
  workspace: Workspace,
  options: ReadFullConventionsOptions = {},
): Promise<FullConventions> {
  requireString("block.project.path", block?.project?.path);
  requireObject("block.conventions", block.conventions);
  requireWorkspace("workspace", workspace);
  requireObject("options", options);
  const { maxBytes = 64 * 1024 } = options;
  requireWholeNumber("maxBytes", maxBytes, 1);
  const fullPath = block.conventions.fullPath;
  if (fullPath !== undefined) requireString("block.conventions.fullPath", fullPath);
  const path =
    fullPath === undefined
      ? CONVENTIONS_PATH
      : toWorkspacePath(fullPath, block.project.path, "conventions.fullPath");
  const file = await readTextFile(workspace, path, maxBytes);
  const { text, size, truncated } = file;
  const notes = readNotes(file, maxBytes, "The rest was not read.");
  const result: FullConventions = { path, text, size, truncated };
  return notes.length === 0 ? result : { ...result, warning: notes.join(" ") };
}

/** What a reader should know about a bounded read: the file was cut, or had invalid UTF-8. */
export function readNotes(file: TextFile, maxBytes: number, ifCut: string): string[] {
  const { path, size, truncated, replaced } = file;
  return [
    truncated
      ? `${path} was truncated from ${size} to ${maxBytes} bytes (limit ${maxBytes}). ${ifCut}`
      : "",
    replaced ? `${path} is not valid UTF-8; invalid bytes were replaced with U+FFFD.` : "",
  ].filter((note) => note !== "");
}

const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

/**
 * Maps a path from a context block to a workspace-relative path: an absolute path must lie under
 * `projectPath`; a relative one is taken relative to the project root. Both are normalised
 * lexically (`.`, `..`, empty segments) and may not climb out; the workspace then refuses
 * symbolic links that lead out.
 */
function toWorkspacePath(path: string, projectPath: string, field: string): string {
  const windows = WINDOWS_ABSOLUTE.test(projectPath);
  const segments = (text: string): string[] | undefined => {
    const out: string[] = [];
    for (const segment of text.split(windows ? /[\\/]/ : "/")) {
      if (segment === "..") {
        if (out.pop() === undefined) return undefined;
      } else if (segment !== "" && segment !== ".") out.push(segment);
    }
    return out;
  };
  const absolute = path.startsWith("/") || WINDOWS_ABSOLUTE.test(path);
  const root = absolute ? (segments(projectPath) ?? []) : [];
  const target = segments(path);
  const same = (a: string, b: string | undefined) =>
    windows ? a.toLowerCase() === b?.toLowerCase() : a === b;
  if (
    target === undefined ||
    (absolute && WINDOWS_ABSOLUTE.test(path) !== windows) ||
    !root.every((segment, index) => same(segment, target[index]))
  ) {
    throw new ContextPathOutsideProjectError({ field, path, projectPath });
  }
  return target.slice(root.length).join("/") || ".";
}
