import { closeSync, constants, fstatSync, openSync, read, readSync, type Stats } from "node:fs";
import { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { systemErrorCode, thrownMessage } from "@task-context/core/internal";
import { CliError } from "./cli-error.ts";
import { BoundedBytes, inputTooLarge, MAX_INPUT_BYTES } from "./input-limit.ts";

/**
 * Opening never waits: without O_NONBLOCK, opening a FIFO that no program writes to blocks until
 * one does. Windows has no such flag (0 there) and no FIFOs either.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** How long a FIFO given as a path may stay without a program that opens it for writing. */
export const FIFO_WRITER_WAIT_MS = 5_000;

/** How often a FIFO without a writer is looked at again while waiting for one. */
const FIFO_POLL_MS = 50;

/** The largest chunk read from a regular file at a time. */
const CHUNK_BYTES = 1024 * 1024;

/** The hint for a path that could not be read. */
const PATH_HINT = "check the path, or pass - to read from stdin";

/** The error for a file that could not be read: what the system said, and what to check. */
export function unreadable(path: string, error: unknown): CliError {
  const code = systemErrorCode(error);
  const reason =
    code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
        ? "it is a directory"
        : code === "EACCES"
          ? "permission denied"
          : code === "ENXIO"
            ? "it is a socket or a device nothing serves"
            : thrownMessage(error, "unknown error");
  return new CliError({
    code: "CLI_UNREADABLE_INPUT",
    message: `cannot read ${path}: ${reason}`,
    hint: PATH_HINT,
    cause: error,
  });
}

/** The error for a path that names something other than a file or a FIFO. */
function notAFile(name: string, stats: Stats): CliError {
  const kind = stats.isDirectory()
    ? "a directory"
    : stats.isCharacterDevice()
      ? "a character device"
      : stats.isBlockDevice()
        ? "a block device"
        : stats.isSocket()
          ? "a socket"
          : "not a regular file";
  return new CliError({
    code: "CLI_UNREADABLE_INPUT",
    message: `cannot read ${name}: it is ${kind}, not a file`,
    hint: kind === "a directory" ? PATH_HINT : "pass a file, or pipe the input in with -",
  });
}

function readChunk(fd: number, buffer: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, buffer.length, null, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    );
  });
}

/** A regular file, read chunk by chunk up to the limit (it may grow while it is read). */
async function readRegularFile(fd: number, name: string, size: number): Promise<Uint8Array> {
  if (size > MAX_INPUT_BYTES) throw inputTooLarge(name, size);
  const bytes = new BoundedBytes(name);
  const chunkBytes = Math.min(Math.max(size + 1, 4096), CHUNK_BYTES);
  for (;;) {
    const chunk = new Uint8Array(chunkBytes);
    const bytesRead = await readChunk(fd, chunk);
    if (bytesRead === 0) return bytes.bytes();
    bytes.add(chunk.subarray(0, bytesRead));
  }
}

/**
 * Waits until a program has the FIFO open for writing: a non-blocking read then gives data
 * (returned) or EAGAIN (undefined), while 0 bytes means no writer yet. Refuses after
 * {@link FIFO_WRITER_WAIT_MS}.
 */
async function waitForWriter(fd: number, name: string): Promise<Uint8Array | undefined> {
  const deadline = Date.now() + FIFO_WRITER_WAIT_MS;
  const first = new Uint8Array(64 * 1024);
  for (;;) {
    try {
      const bytesRead = readSync(fd, first, 0, first.length, null);
      if (bytesRead > 0) return first.subarray(0, bytesRead);
    } catch (error) {
      if (systemErrorCode(error) === "EAGAIN") return undefined;
      throw error;
    }
    if (Date.now() >= deadline) {
      throw new CliError({
        code: "CLI_UNREADABLE_INPUT",
        message: `cannot read ${name}: it is a FIFO that no program opened for writing within ${FIFO_WRITER_WAIT_MS / 1000} s`,
        hint: "start the program that writes to it first, or pipe its output in with -",
      });
    }
    await sleep(FIFO_POLL_MS);
  }
}

/**
 * A FIFO (a named pipe, or `/dev/fd/N` from a shell's `<(…)`), once a program writes to it, read
 * up to the limit as a pipe is: the event loop waits for data, no thread blocks. Takes `fd` over.
 */
async function readFifo(fd: number, name: string): Promise<Uint8Array> {
  let first: Uint8Array | undefined;
  try {
    first = await waitForWriter(fd, name);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const bytes = new BoundedBytes(name);
  if (first !== undefined) bytes.add(first);
  // The socket owns the descriptor from here: destroying it closes it, and the writer's next
  // write fails, as a pipe's does when its reader stops.
  const pipe = new Socket({ fd, readable: true, writable: false });
  try {
    for await (const chunk of pipe) bytes.add(chunk as Uint8Array);
    return bytes.bytes();
  } finally {
    pipe.destroy();
  }
}

/**
 * Reads the file at `fullPath` (shown as `name`), never more than {@link MAX_INPUT_BYTES} and one
 * byte: a regular file over the limit is refused from its size, a FIFO is read like a pipe once a
 * program writes to it, and anything else (a directory, a device such as `/dev/zero`, a socket)
 * is refused without reading. Symbolic links are followed: the user named the path.
 */
export async function readPath(fullPath: string, name: string): Promise<Uint8Array> {
  let fd: number;
  try {
    fd = openSync(fullPath, OPEN_FLAGS);
  } catch (error) {
    throw unreadable(name, error);
  }
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw unreadable(name, error);
  }
  const fifo = stats.isFIFO();
  try {
    if (fifo) return await readFifo(fd, name);
    if (!stats.isFile()) throw notAFile(name, stats);
    return await readRegularFile(fd, name, stats.size);
  } catch (error) {
    throw CliError.isInstance(error) ? error : unreadable(name, error);
  } finally {
    if (!fifo) closeSync(fd);
  }
}
