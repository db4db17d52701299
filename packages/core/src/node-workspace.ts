import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  read,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { lstat, mkdir, open, realpath, rename, unlink } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { FileNotFoundError } from "./errors/file-not-found-error.ts";
import { type FileKind, NotRegularFileError } from "./errors/not-regular-file-error.ts";
import { WorkspaceEscapeError } from "./errors/workspace-escape-error.ts";
import { WorkspacePathError } from "./errors/workspace-path-error.ts";
import { readLimit } from "./read-limit.ts";
import type { FileContent, ReadFileOptions, Workspace } from "./workspace.ts";
import { parseWorkspacePath } from "./workspace-path.ts";

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null
    ? (error as { code?: string }).code
    : undefined;
}

function kindOf(stats: Stats): FileKind {
  if (stats.isDirectory()) return "directory";
  if (stats.isSymbolicLink()) return "symbolic-link";
  if (stats.isFIFO()) return "fifo";
  if (stats.isCharacterDevice()) return "character-device";
  if (stats.isBlockDevice()) return "block-device";
  if (stats.isSocket()) return "socket";
  return "unknown";
}

/** Reads up to this many bytes synchronously: a few microseconds, no thread-pool round trip. */
const SYNCHRONOUS_READ_LIMIT = 64 * 1024;

function readAt(fd: number, bytes: Uint8Array, offset: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, bytes, offset, bytes.length - offset, position, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    );
  });
}

/** Fills `bytes` from the start of the file; returns how many bytes the file had. */
async function readInto(fd: number, bytes: Uint8Array): Promise<number> {
  let filled = 0;
  while (filled < bytes.length) {
    const bytesRead =
      bytes.length <= SYNCHRONOUS_READ_LIMIT
        ? readSync(fd, bytes, filled, bytes.length - filled, filled)
        : await readAt(fd, bytes, filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * A workspace on disk that never reads or writes outside `root`.
 *
 * - Paths are checked before the file system is touched (no `..`, absolute paths, NUL bytes or
 *   backslashes).
 * - Reads open first — without following a symbolic link at the last component and without
 *   blocking on FIFOs — then check what was opened: a regular file whose real path is under the
 *   root and is the very file the descriptor holds. A symbolic link swapped in between cannot leak
 *   a file. At most `maxBytes` bytes are read. Metadata calls and reads up to 64 KiB are
 *   synchronous (microseconds each); larger reads are asynchronous.
 * - Writes go to a new temporary file beside the target and are renamed over it, so they are
 *   atomic and never go through a symbolic link.
 *
 * @example
 * ```ts
 * import { loadTaskContext } from "@task-context/core";
 * import { nodeWorkspace } from "@task-context/core/node";
 *
 * const workspace = nodeWorkspace("/srv/agents/run-42");
 * const context = await loadTaskContext(workspace);
 * ```
 */
export function nodeWorkspace(root: string): Workspace {
  const absoluteRoot = resolve(root);
  let realRoot: Promise<string> | undefined;
  const rootPath = () => {
    realRoot ??= realpath(absoluteRoot).catch((error: unknown) => {
      realRoot = undefined;
      throw error;
    });
    return realRoot;
  };

  async function readFile(path: string, options: ReadFileOptions = {}): Promise<FileContent> {
    const segments = parseWorkspacePath(path);
    let base: string;
    try {
      base = await rootPath();
    } catch (error) {
      if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") {
        throw new FileNotFoundError(path, { cause: error });
      }
      throw error;
    }
    const fullPath = base + sep + segments.join(sep);
    // Metadata calls are synchronous: each takes microseconds, and O_NONBLOCK keeps the open of a
    // FIFO from waiting for a writer.
    let fd: number;
    try {
      fd = openSync(fullPath, READ_FLAGS);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || code === "ENOTDIR")
        throw new FileNotFoundError(path, { cause: error });
      if (code === "ELOOP") throw new NotRegularFileError(path, "symbolic-link");
      throw error;
    }
    try {
      const opened = fstatSync(fd);
      if (!opened.isFile()) throw new NotRegularFileError(path, kindOf(opened));
      let resolved: string;
      let current: Stats;
      try {
        resolved = realpathSync.native(fullPath);
        current = statSync(resolved);
      } catch {
        // The file was removed or a directory swapped after it was opened: refuse it.
        throw new WorkspaceEscapeError(path);
      }
      if (!isInside(base, resolved) || current.ino !== opened.ino || current.dev !== opened.dev) {
        throw new WorkspaceEscapeError(path);
      }
      const bytes = new Uint8Array(readLimit(options, opened.size));
      const filled = await readInto(fd, bytes);
      return {
        bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled),
        size: opened.size,
      };
    } finally {
      closeSync(fd);
    }
  }

  /** Creates the parent directories one by one, refusing any that is a symbolic link. */
  async function ensureParent(path: string, base: string, parents: string[]): Promise<string> {
    let directory = base;
    for (const segment of parents) {
      directory = directory + sep + segment;
      try {
        await mkdir(directory);
      } catch (error) {
        if (errorCode(error) !== "EEXIST") throw error;
      }
      const info = await lstat(directory);
      if (info.isSymbolicLink()) throw new WorkspaceEscapeError(path);
      if (!info.isDirectory()) {
        throw new WorkspacePathError(
          path,
          `"${segment}" is a ${kindOf(info).replace("-", " ")}, not a directory`,
        );
      }
    }
    return directory;
  }

  async function writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const segments = parseWorkspacePath(path);
    const name = segments[segments.length - 1] as string;
    const base = await rootPath();
    const directory = await ensureParent(path, base, segments.slice(0, -1));
    const temporary = `${directory}${sep}.${name}.${crypto.randomUUID()}.tmp`;
    const handle = await open(temporary, CREATE_FLAGS, 0o644);
    try {
      try {
        await handle.writeFile(data);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      if (!isInside(base, await realpath(directory))) throw new WorkspaceEscapeError(path);
      try {
        await rename(temporary, directory + sep + name);
      } catch (error) {
        if (errorCode(error) === "EISDIR") throw new NotRegularFileError(path, "directory");
        throw error;
      }
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  return { description: absoluteRoot, readFile, writeFile };
}
