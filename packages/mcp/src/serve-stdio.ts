import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/server";
import { serveStdio as serveSdkStdio } from "@modelcontextprotocol/server/stdio";
import {
  ArgumentError,
  CONTEXT_FILENAME,
  type ContextView,
  type SecretPolicy,
  type Tokenizer,
} from "@task-context/core";
import { requireObject, requireText, systemErrorCode } from "@task-context/core/internal";
import { nodeWorkspace } from "@task-context/core/node";
import { taskIdSchema } from "@task-context/protocols";
import { buildTaskContextServer, createTaskContextServer } from "./create-task-context-server.ts";
import { fingerprintedLoader } from "./fingerprinted-loader.ts";
import { observeClose } from "./observe-close.ts";
import { stdioLineTransport } from "./stdio-line-transport.ts";
import type { TaskContextLoader } from "./task-context-loader.ts";
import { type TaskContextWatcher, watchTaskContext } from "./watch-task-context.ts";

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions {
  /** The workspace directory: CONTEXT.md, `.sage/context/` and `docs/` are read from it. */
  directory: string;
  /** Most UTF-16 units of CONTEXT.md delivered (default 10 000). */
  maxChars?: number | undefined;
  /** Most tokens of CONTEXT.md delivered, counted with `tokenizer`. */
  maxTokens?: number | undefined;
  /** Counts tokens for `maxTokens`. */
  tokenizer?: Tokenizer | undefined;
  /** What to do with secrets in CONTEXT.md: `"redact"` (default), `"refuse"` or `"allow"`. */
  secrets?: SecretPolicy | undefined;
  /**
   * The view of CONTEXT.md delivered where a request names none (`createTaskContextServer`'s
   * `view`); default: the whole file.
   */
  view?: ContextView | undefined;
  /** Quiet milliseconds that end a burst of changes to CONTEXT.md (default 50). */
  debounceMs?: number | undefined;
  /** Where the client's messages are read (default: this process's stdin). */
  input?: Readable | undefined;
  /** Where the answers are written (default: this process's stdout). */
  output?: Writable | undefined;
  /**
   * Another transport to serve on instead of `input` and `output` (the promises below are then
   * that transport's own).
   */
  transport?: Transport | undefined;
  /** Called with errors that happen outside any request (reporting only). */
  onerror?: ((error: Error) => void) | undefined;
}

/** What {@link serveStdio} returns. */
export interface TaskContextStdioServer {
  /** The absolute, real path of the workspace directory. */
  readonly directory: string;
  /** The watch behind the subscriptions (open only while a client is subscribed). */
  readonly watcher: TaskContextWatcher;
  /**
   * Resolves when the connection has ended — the client closed stdin, or {@link close} was
   * called — and the watch is closed: what a command awaits before it exits.
   */
  readonly closed: Promise<void>;
  /** Closes the connection and the watch. */
  close(): Promise<void>;
}

/** The task ids with a document under `.sage/context/`, when that is a real directory. */
async function sageTaskIds(directory: string): Promise<string[]> {
  const sage = join(directory, ".sage");
  const context = join(sage, "context");
  try {
    // A symbolic link could list the names of a directory outside the workspace.
    if (!(await lstat(sage)).isDirectory() || !(await lstat(context)).isDirectory()) return [];
    const names = await readdir(context);
    return names
      .filter((name) => name.endsWith(".xml"))
      .map((name) => name.slice(0, -".xml".length))
      .filter((taskId) => taskIdSchema.safeParse(taskId).success)
      .sort();
  } catch (error) {
    if (systemErrorCode(error) === "ENOENT" || systemErrorCode(error) === "ENOTDIR") return [];
    throw error;
  }
}

/** The directory's real path; refuses anything but an existing directory. */
async function requireDirectory(directory: string): Promise<string> {
  try {
    const real = await realpath(directory);
    if ((await stat(real)).isDirectory()) return real;
  } catch (error) {
    const code = systemErrorCode(error);
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  throw new ArgumentError({
    argument: "directory",
    message: `${JSON.stringify(directory)} is not a directory. Give the workspace directory that holds CONTEXT.md.`,
  });
}

/**
 * Serves the task context of a directory over stdio (the MCP transport of Claude Code, Codex,
 * Cursor and the Inspector): one {@link createTaskContextServer} per connection, through
 * `nodeWorkspace` (no symbolic link out of the directory, no FIFO, bounded reads), both protocol
 * eras, and CONTEXT.md change notifications from one directory watch. What `task-context mcp
 * [dir]` runs.
 *
 * Every request read before stdin ends is answered before the connection closes (a client may
 * write its requests and close stdin at once). A message over 10 MiB, a line that is not JSON
 * and one that is not JSON-RPC are each answered with a JSON-RPC error (`-32600`, `-32700`,
 * `id: null` when it has no readable id), and the next line is served as usual.
 *
 * @throws {ArgumentError} when `directory` is not an existing directory or an option is invalid.
 *
 * @example
 * ```ts source="../examples/serve-stdio.ts#serveStdio"
 * const server = await serveStdio({ directory: process.argv[2] ?? "." });
 * process.on("SIGTERM", () => void server.close());
 * await server.closed; // the client closed stdin
 * ```
 */
export async function serveStdio(options: ServeStdioOptions): Promise<TaskContextStdioServer> {
  requireObject("options", options);
  requireText("directory", options.directory, "the workspace directory, a non-empty path");
  const directory = await requireDirectory(options.directory);
  const { maxChars, maxTokens, tokenizer, secrets, view, transport, onerror } = options;
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const workspace = nodeWorkspace(directory);
  const watcher = watchTaskContext(directory, { debounceMs: options.debounceMs ?? 50 });
  const serverOptions = {
    workspace,
    maxChars,
    maxTokens,
    tokenizer,
    secrets,
    view,
    projectPath: directory,
    changes: watcher,
    listSageTaskIds: () => sageTaskIds(directory),
  };
  // Checks the options once, before the first client connects.
  createTaskContextServer(serverOptions);
  // One connection per process: the loads of an unchanged CONTEXT.md are shared across calls.
  let cachedLoad: TaskContextLoader | undefined;
  const reuseLoads = (load: TaskContextLoader) => {
    cachedLoad ??= fingerprintedLoader(load, join(directory, CONTEXT_FILENAME));
    return cachedLoad;
  };
  const observed = observeClose(transport ?? stdioLineTransport(input, output));
  const handle = serveSdkStdio(
    (context) => buildTaskContextServer({ ...serverOptions, era: context.era }, reuseLoads),
    { transport: observed.transport, ...(onerror !== undefined && { onerror }) },
  );
  const closed = observed.closed.then(() => watcher.close());
  return {
    directory,
    watcher,
    closed,
    async close() {
      await handle.close();
      await closed;
    },
  };
}
