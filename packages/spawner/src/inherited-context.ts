import { Buffer } from "node:buffer";
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import {
  CONTEXT_FILENAME,
  ContextViewEmptyError,
  type FileContent,
  type LoadTaskContextOptions,
  loadTaskContext,
  type TaskContext,
  type Workspace,
} from "@task-context/core";
import { encodeUtf8, sha256Hex, systemErrorCode } from "@task-context/core/internal";

// Flags that exist on every POSIX system; Windows lacks O_NOFOLLOW and O_NONBLOCK (0 there).
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const READ_FLAGS = constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/** The mode of a subagent's copy of CONTEXT.md: readable by everyone, writable by no one. */
const CONTEXT_COPY_MODE = 0o444;

/** The parent's CONTEXT.md as loaded once for a whole `spawnSubagents` call. */
export interface ParentContext {
  /** What the loader delivered (bounded), the text every subagent gets. */
  context: TaskContext;
  /** `context.content` as UTF-8: the bytes of every copy. */
  bytes: Uint8Array;
  /**
   * The SHA-256 the parent's CONTEXT.md delivers now (`context.sha256` while it still delivers
   * `context.content`), or undefined when it was removed. Cheap when nothing changed: one
   * `lstat`, or one bounded read compared byte for byte with the first one.
   */
  currentSha256(): Promise<string | undefined>;
}

/** Byte-for-byte equality, with the runtime's native comparison. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return (
    a.length === b.length &&
    Buffer.from(a.buffer, a.byteOffset, a.length).equals(
      Buffer.from(b.buffer, b.byteOffset, b.length),
    )
  );
}

/**
 * File timestamps tick coarsely (a kernel tick on Linux, 2 s on FAT). A file modified less than
 * this long before it was read may be modified again without a new timestamp, so its metadata
 * cannot prove it unchanged (git's "racily clean" entries).
 */
const TIMESTAMP_GRANULARITY_NS = 2_000_000_000n;

/**
 * Identifies one version of a regular file by its metadata: device, inode, size, modification
 * and change times. Any write changes the change time, which no unprivileged process can set
 * back. Undefined when the file is missing, not regular, or the runtime lacks bigint stats.
 */
function fileStamp(path: string): { key: string; modifiedNs: bigint } | undefined {
  try {
    const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    if (stats === undefined || !stats.isFile()) return undefined;
    return {
      key: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`,
      // biome-ignore lint/complexity/useMathMinMax: Math.max does not take bigints.
      modifiedNs: stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs,
    };
  } catch {
    return undefined; // No bigint stats here: the byte comparison below does the job.
  }
}

/**
 * Loads the parent's CONTEXT.md (throwing `TaskContextMissingError` when it is missing) and
 * remembers the raw bytes the loader read, so that later checks can tell cheaply whether the
 * file still delivers the same text. With `file` (the parent's CONTEXT.md on disk) the check is
 * one `lstat` while the file's metadata is unchanged. With `options.view`, what is loaded (and
 * compared) is that view of the file.
 */
export async function loadParentContext(
  parent: Workspace,
  options: Omit<LoadTaskContextOptions, "required"> = {},
  file?: string,
  granularityNs = TIMESTAMP_GRANULARITY_NS,
): Promise<ParentContext> {
  let raw: FileContent | undefined;
  let maxBytes: number | undefined;
  const recording: Workspace = {
    description: parent.description,
    async readFile(path, readOptions) {
      const read = await parent.readFile(path, readOptions);
      if (path === CONTEXT_FILENAME) {
        raw = { bytes: read.bytes.slice(), size: read.size };
        maxBytes = readOptions?.maxBytes;
      }
      return read;
    },
    writeFile: (path, data) => parent.writeFile(path, data),
  };
  const loadOptions = { ...options, required: true };
  const before = file === undefined ? undefined : fileStamp(file);
  const context = await loadTaskContext(recording, loadOptions);
  const bytes = encodeUtf8(context.content);
  // The stamp proves "unchanged" only when the load read that very version, and it was not
  // modified so recently that a further write could share its timestamps.
  const after = file === undefined ? undefined : fileStamp(file);
  const stamp =
    before !== undefined &&
    after !== undefined &&
    before.key === after.key &&
    BigInt(Date.now()) * 1_000_000n - after.modifiedNs > granularityNs
      ? after.key
      : undefined;

  async function currentSha256(): Promise<string | undefined> {
    if (stamp !== undefined && file !== undefined && fileStamp(file)?.key === stamp) {
      return context.sha256;
    }
    if (raw !== undefined) {
      try {
        const now = await parent.readFile(
          CONTEXT_FILENAME,
          maxBytes === undefined ? {} : { maxBytes },
        );
        if (now.size === raw.size && sameBytes(now.bytes, raw.bytes)) return context.sha256;
      } catch {
        // Whatever went wrong, the loader below says what the file delivers now.
      }
    }
    const current = await loadTaskContext(parent, { ...loadOptions, required: false }).catch(
      (error: unknown) => {
        // The file no longer has the view's sections: it no longer delivers what was given.
        if (ContextViewEmptyError.isInstance(error)) return undefined;
        throw error;
      },
    );
    return current?.found ? current.sha256 : undefined;
  }

  return { context, bytes, currentSha256 };
}

/** Writes all of `bytes` to `fd`. */
function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}

/**
 * Creates `path` (which must not exist) holding `bytes`, with `mode` (less the umask) or, with
 * `exactMode`, with `mode` whatever the umask. Synchronous: for a few kilobytes each call takes
 * microseconds on a fast disk, less than a thread-pool round trip.
 */
function createFile(path: string, bytes: Uint8Array, mode: number, exactMode = false): void {
  const fd = openSync(path, CREATE_FLAGS, mode);
  try {
    writeAll(fd, bytes);
    if (exactMode) fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

/** Writes the subagent's read-only copy of CONTEXT.md into its new `directory`. */
export function writeContextCopy(directory: string, bytes: Uint8Array): void {
  createFile(join(directory, CONTEXT_FILENAME), bytes, CONTEXT_COPY_MODE, true);
}

/**
 * Writes `bytes` to `relativePath` under the new, empty `directory`, creating its parent
 * directories one by one (a recursive mkdir would first try, and fail, the deepest one).
 */
export function writeNewFile(directory: string, relativePath: string, bytes: Uint8Array): void {
  const segments = relativePath.split("/");
  let parent = directory;
  for (const segment of segments.slice(0, -1)) {
    parent = join(parent, segment);
    mkdirSync(parent);
  }
  createFile(join(parent, segments[segments.length - 1] as string), bytes, 0o644);
}

/**
 * Checks the subagent's copy of CONTEXT.md against the SHA-256 recorded in the parent process.
 * Returns undefined when the copy is intact, else a sentence saying what happened to it. Never
 * follows a symbolic link, never blocks on a FIFO, and reads at most `expectedSize + 1` bytes.
 */
export async function checkContextCopy(
  directory: string,
  expectedSize: number,
  expectedSha256: string,
): Promise<string | undefined> {
  let fd: number;
  try {
    fd = openSync(join(directory, CONTEXT_FILENAME), READ_FLAGS);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === "ENOENT") return "was deleted";
    if (code === "ELOOP") return "was replaced with a symbolic link";
    return `could not be read back (${code ?? "unknown error"})`;
  }
  let bytes: Uint8Array;
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return "was replaced with something that is not a regular file";
    if (stats.size !== expectedSize) {
      return `was changed (${stats.size} bytes instead of ${expectedSize})`;
    }
    const buffer = new Uint8Array(expectedSize + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    if (filled !== expectedSize) return "was changed while it was being checked";
    bytes = buffer.subarray(0, filled);
  } catch (error) {
    return `could not be read back (${systemErrorCode(error) ?? "unknown error"})`;
  } finally {
    closeSync(fd);
  }
  return (await sha256Hex(bytes)) === expectedSha256
    ? undefined
    : "was changed (its SHA-256 differs)";
}
