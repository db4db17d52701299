import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  read,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readlink,
  realpath,
  rename,
  unlink,
} from "node:fs/promises";
import { resolve, sep } from "node:path";
import {
  requireFileData,
  requireObject,
  requireOptionalBoolean,
  requireText,
} from "./arguments.ts";
import { FileNotFoundError } from "./errors/file-not-found-error.ts";
import { type FileKind, NotRegularFileError } from "./errors/not-regular-file-error.ts";
import { TaskContextError } from "./errors/task-context-error.ts";
import { WorkspaceEscapeError } from "./errors/workspace-escape-error.ts";
import { WorkspaceIoError } from "./errors/workspace-io-error.ts";
import { WorkspacePathError } from "./errors/workspace-path-error.ts";
import { readLimit } from "./read-limit.ts";
import { systemErrorCode as errorCode } from "./system-error-code.ts";
import type { FileContent, ReadFileOptions, Workspace } from "./workspace.ts";
import { parseWorkspacePath } from "./workspace-path.ts";

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Linux names every open descriptor here: `readlink` gives the path of the very file a descriptor
 * holds, and a path through `/proc/self/fd/<fd>/name` looks `name` up in the directory a
 * descriptor holds (an `openat` without native bindings). Elsewhere (macOS, Windows) the checks
 * fall back to paths, which a concurrent swap of a directory for a symbolic link can race.
 */
const PROC_FD = process.platform === "linux" ? "/proc/self/fd/" : undefined;

/** The kernel's path of the file open as `fd`, or undefined where /proc/self/fd is unavailable. */
function descriptorPath(fd: number): string | undefined {
  if (PROC_FD === undefined) return undefined;
  try {
    return readlinkSync(PROC_FD + fd);
  } catch {
    return undefined;
  }
}

/**
 * Passes task-context errors on and turns anything else the file system threw into a
 * {@link WorkspaceIoError}, whose message holds the workspace path only: the raw error names
 * absolute paths outside the workspace.
 */
function asWorkspaceError(error: unknown, path: string, operation: "read" | "write"): unknown {
  if (TaskContextError.isInstance(error)) return error;
  // Deno's permission errors carry no code; their messages name absolute paths too.
  const name = error instanceof Error ? error.name : undefined;
  const systemCode =
    name === "NotCapable" || name === "PermissionDenied" ? "NOT_CAPABLE" : errorCode(error);
  if (systemCode === undefined) return error;
  return new WorkspaceIoError({ path, operation, systemCode });
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
 * The error for a parent path segment that could not be used as a directory. A directory here
 * means a symbolic link was swapped for it after it was refused: an escape attempt all the same.
 */
function notADirectory(path: string, parent: string, info: Stats): Error {
  if (info.isSymbolicLink() || info.isDirectory()) return new WorkspaceEscapeError({ path });
  const kind = info.isFile() ? "file" : kindOf(info).replace("-", " ");
  return new WorkspacePathError({ path, problem: `"${parent}" is a ${kind}, not a directory` });
}

/** Options of {@link nodeWorkspace}. */
export interface NodeWorkspaceOptions {
  /**
   * Read files that have more than one hard link (default false). A hard link made inside the
   * workspace to a file outside it looks like an ordinary file; with one name per file, nothing
   * outside the root can be read. Allow them only when you trust every name a file may have.
   */
  allowHardLinks?: boolean;
}

/**
 * A workspace on disk that never reads or writes outside `root`.
 *
 * - Paths are checked before the file system is touched (no `..`, absolute paths, NUL bytes or
 *   backslashes).
 * - Reads open first — without following a symbolic link at the last component and without
 *   blocking on FIFOs — then check what was opened: a regular file whose path, as the kernel
 *   reports it for the open descriptor (`/proc/self/fd` on Linux), is under the root. A directory
 *   swapped for a symbolic link at any moment cannot leak a file. At most `maxBytes` bytes are
 *   read. Metadata calls and reads up to 64 KiB are synchronous (microseconds each); larger reads
 *   are asynchronous.
 * - Writes go to a new temporary file beside the target and are renamed over it, so they are
 *   atomic and never go through a symbolic link. On Linux every parent directory is opened
 *   relative to the one before (through `/proc/self/fd`), so a directory swapped for a symbolic
 *   link cannot redirect a write outside the root either.
 * - Without `/proc/self/fd` (macOS, Windows) the same checks use paths: they refuse symbolic links
 *   that leave the root, but a concurrent swap timed between two checks can race them.
 * - Files with more than one hard link are refused (`WorkspaceEscapeError`, `route: "hard-link"`):
 *   a hard link can give a file outside the root a name inside it. Pass `allowHardLinks: true` to
 *   read them anyway.
 * - Operating-system failures become `WorkspaceIoError`s that name the workspace path and the
 *   system's error code, never an absolute path.
 *
 * @example
 * ```ts source="../examples/workspace.ts#nodeWorkspace"
 * const workspace = nodeWorkspace("."); // a directory: here the current one
 * const context = await loadTaskContext(workspace);
 * await workspace.writeFile("notes/summary.md", "Done."); // atomic, never outside the root
 * ```
 */
export function nodeWorkspace(root: string, options: NodeWorkspaceOptions = {}): Workspace {
  requireText("root", root, "the workspace directory, a non-empty path");
  const allowHardLinks =
    requireOptionalBoolean(
      "options.allowHardLinks",
      requireObject("options", options).allowHardLinks,
    ) ?? false;
  const absoluteRoot = resolve(root);
  let realRoot: Promise<string> | undefined;
  const rootPath = () => {
    realRoot ??= realpath(absoluteRoot).catch((error: unknown) => {
      realRoot = undefined;
      throw error;
    });
    return realRoot;
  };

  /** The root's real path; a missing root means no file at `path`. */
  async function existingRoot(path: string): Promise<string> {
    try {
      return await rootPath();
    } catch (error) {
      if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") {
        throw new FileNotFoundError({ path });
      }
      throw error;
    }
  }

  async function readFile(path: string, options: ReadFileOptions = {}): Promise<FileContent> {
    requireObject("options", options);
    try {
      return await readRegularFile(path, options);
    } catch (error) {
      throw asWorkspaceError(error, path, "read");
    }
  }

  async function readRegularFile(path: string, options: ReadFileOptions): Promise<FileContent> {
    const segments = parseWorkspacePath(path);
    const base = await existingRoot(path);
    const fullPath = base + sep + segments.join(sep);
    // Metadata calls are synchronous: each takes microseconds, and O_NONBLOCK keeps the open of a
    // FIFO from waiting for a writer.
    let fd: number;
    try {
      fd = openSync(fullPath, READ_FLAGS);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") throw new FileNotFoundError({ path });
      if (code === "ELOOP") throw new NotRegularFileError({ path, kind: "symbolic-link" });
      if (code === "ENXIO" || code === "ENODEV") {
        // A socket, or a device without a driver: it cannot be opened, so say what it is.
        const info = await lstat(fullPath).catch(() => undefined);
        throw new NotRegularFileError({
          path,
          kind: info === undefined ? "unknown" : kindOf(info),
        });
      }
      throw error;
    }
    try {
      const opened = fstatSync(fd);
      if (!opened.isFile()) throw new NotRegularFileError({ path, kind: kindOf(opened) });
      if (opened.nlink > 1 && !allowHardLinks) {
        throw new WorkspaceEscapeError({ path, route: "hard-link" });
      }
      const where = descriptorPath(fd);
      // A runtime that resolves the path itself before opening it (Deno does, unless every
      // permission is granted) ignores O_NOFOLLOW: refuse a symbolic link it followed.
      if (where !== fullPath && lstatSync(fullPath, { throwIfNoEntry: false })?.isSymbolicLink()) {
        throw new NotRegularFileError({ path, kind: "symbolic-link" });
      }
      if (where !== undefined) {
        // The path of the file actually opened: swapping a directory afterwards cannot change it.
        if (!isInside(base, where)) throw new WorkspaceEscapeError({ path });
      } else {
        checkByPath(path, base, fullPath, opened);
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

  /**
   * Without /proc/self/fd: checks that `fullPath` resolves under the root to the file `opened`
   * describes. Best effort — a directory swapped back and forth between the two calls can race it.
   */
  function checkByPath(path: string, base: string, fullPath: string, opened: Stats): void {
    let resolved: string;
    let current: Stats;
    try {
      resolved = realpathSync.native(fullPath);
      current = statSync(resolved);
    } catch {
      // The file was removed or a directory swapped after it was opened: refuse it.
      throw new WorkspaceEscapeError({ path });
    }
    if (!isInside(base, resolved) || current.ino !== opened.ino || current.dev !== opened.dev) {
      throw new WorkspaceEscapeError({ path });
    }
  }

  /**
   * Linux: opens the parent directories one by one, each relative to the one before through
   * /proc/self/fd, creating missing ones and refusing any that is a symbolic link. Whatever is
   * swapped in meanwhile, the returned handle holds a directory inside the root. Undefined where
   * /proc/self/fd is not available.
   */
  async function openParent(
    path: string,
    base: string,
    parents: string[],
  ): Promise<FileHandle | undefined> {
    if (PROC_FD === undefined) return undefined;
    let directory = await open(base, DIRECTORY_FLAGS);
    try {
      if ((await readlink(PROC_FD + directory.fd).catch(() => undefined)) !== base) {
        await directory.close();
        return undefined;
      }
      for (const [index, segment] of parents.entries()) {
        const child = `${PROC_FD}${directory.fd}/${segment}`;
        try {
          await mkdir(child);
        } catch (error) {
          if (errorCode(error) !== "EEXIST") throw error;
        }
        let next: FileHandle;
        try {
          next = await open(child, DIRECTORY_FLAGS);
        } catch (error) {
          const code = errorCode(error);
          if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
          throw notADirectory(path, parents.slice(0, index + 1).join("/"), await lstat(child));
        }
        await directory.close();
        directory = next;
      }
      return directory;
    } catch (error) {
      await directory.close();
      throw error;
    }
  }

  /** Without /proc/self/fd: creates the parent directories by path, refusing symbolic links. */
  async function ensureParent(path: string, base: string, parents: string[]): Promise<string> {
    let directory = base;
    for (const [index, segment] of parents.entries()) {
      directory = directory + sep + segment;
      try {
        await mkdir(directory);
      } catch (error) {
        if (errorCode(error) !== "EEXIST") throw error;
      }
      const info = await lstat(directory);
      if (!info.isDirectory())
        throw notADirectory(path, parents.slice(0, index + 1).join("/"), info);
    }
    return directory;
  }

  /** Writes a temporary file in `directory` and renames it over `name` there. */
  async function replaceIn(
    path: string,
    directory: string,
    name: string,
    data: string | Uint8Array,
    beforeRename?: () => Promise<void>,
  ): Promise<void> {
    // A fixed-length name: a long target name must not push the temporary one past NAME_MAX.
    const temporary = `${directory}${sep}.task-context-${crypto.randomUUID()}.tmp`;
    const handle = await open(temporary, CREATE_FLAGS, 0o644);
    try {
      try {
        await handle.writeFile(data);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await beforeRename?.();
      try {
        await rename(temporary, directory + sep + name);
      } catch (error) {
        if (errorCode(error) === "EISDIR")
          throw new NotRegularFileError({ path, kind: "directory" });
        throw error;
      }
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  async function writeFile(path: string, data: string | Uint8Array): Promise<void> {
    requireFileData("data", data);
    try {
      await writeRegularFile(path, data);
    } catch (error) {
      throw asWorkspaceError(error, path, "write");
    }
  }

  async function writeRegularFile(path: string, data: string | Uint8Array): Promise<void> {
    const segments = parseWorkspacePath(path);
    const name = segments[segments.length - 1] as string;
    const parents = segments.slice(0, -1);
    const base = await existingRoot(path);
    const parent = await openParent(path, base, parents);
    if (parent !== undefined) {
      try {
        await replaceIn(path, `${PROC_FD}${parent.fd}`, name, data);
      } finally {
        await parent.close();
      }
      return;
    }
    const directory = await ensureParent(path, base, parents);
    await replaceIn(path, directory, name, data, async () => {
      if (!isInside(base, await realpath(directory))) throw new WorkspaceEscapeError({ path });
    });
  }

  return { description: absoluteRoot, readFile, writeFile };
}
