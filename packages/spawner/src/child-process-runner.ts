import { Buffer } from "node:buffer";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { ArgumentError } from "@task-context/core";
import {
  describeArgument,
  MAX_TIMER_MS,
  requireObject,
  requireText,
  requireWholeNumber,
  systemErrorCode,
} from "@task-context/core/internal";
import { traceEnvironment } from "@task-context/core/tracing";
import { SubagentProcessError } from "./errors/subagent-process-error.ts";
import type { SubagentRunner } from "./subagent-runner.ts";

/** Most bytes read from a subagent's stdout by default (1 MiB). */
const DEFAULT_MAX_OUTPUT_BYTES = 1_048_576;
/** Bytes of the end of a subagent's stderr kept by default (16 KiB). */
const DEFAULT_MAX_LOG_BYTES = 16_384;
/** Milliseconds between SIGTERM and SIGKILL by default. */
const DEFAULT_KILL_GRACE_MS = 2_000;
/** How much longer than the kill grace the spawner waits for a stopped process to be gone. */
const STOP_MARGIN_MS = 1_000;

/** Options of {@link childProcessRunner}. */
export interface ChildProcessRunnerOptions {
  /** The program to run (no shell): e.g. `process.execPath` or `"/usr/local/bin/my-agent"`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /**
   * Variables added to the inherited environment; `undefined` removes an inherited one. The
   * spawner's `TASK_CONTEXT_*` variables are set last and cannot be overridden.
   */
  env?: Record<string, string | undefined>;
  /** Milliseconds between SIGTERM and SIGKILL when the process group is stopped (default 2 000). */
  killGraceMs?: number;
  /** Most bytes read from stdout; more fails the subagent and stops it (default 1 048 576, 1 MiB). */
  maxOutputBytes?: number;
  /** Bytes of the end of stderr kept for the result's notes (default 16 384, 16 KiB; 0 keeps none). */
  maxLogBytes?: number;
}

const IS_WINDOWS = process.platform === "win32";

/** Returns `value` when it is a string a process can receive (no NUL byte); throws otherwise. */
function processString(argument: string, value: unknown, what: string): string {
  if (typeof value !== "string" || value.includes("\0")) {
    throw new ArgumentError({
      argument,
      message: `expected ${what} without NUL bytes, got ${describeArgument(value)}${typeof value === "string" ? " with a NUL byte" : ""}.`,
    });
  }
  return value;
}

function checkArgs(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new ArgumentError({
      argument: "args",
      message: `expected an array of strings, got ${describeArgument(value)}.`,
    });
  }
  return value.map((arg, index) => processString(`args[${index}]`, arg, "a string"));
}

function checkEnv(value: unknown): Record<string, string | undefined> {
  if (value === undefined) return {};
  const env = requireObject("env", value, "an object of environment variables");
  for (const [name, variable] of Object.entries(env)) {
    if (name === "" || name.includes("=") || name.includes("\0")) {
      throw new ArgumentError({
        argument: "env",
        message: `expected environment variable names without "=" or NUL bytes, got ${JSON.stringify(name)}.`,
      });
    }
    if (variable !== undefined) processString(`env.${name}`, variable, "a string or undefined");
  }
  return { ...env } as Record<string, string | undefined>;
}

/** Words for the errors that stop a program from starting. */
function cannotStartReason(error: unknown): string {
  const code = systemErrorCode(error);
  switch (code) {
    case "ENOENT":
      return "the program does not exist (ENOENT). Check the command's path.";
    case "EACCES":
    case "EPERM":
      return `this process may not execute it (${code}). Check the program's permissions.`;
    default:
      return `the system refused${code === undefined ? "" : ` (${code})`}. Check the command and the system's process limits.`;
  }
}

/** The last `limit` bytes written to a stream, kept without holding everything. */
class Tail {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private dropped = false;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  push(chunk: Uint8Array): void {
    if (this.limit === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.limit && this.chunks.length > 1) {
      this.size -= (this.chunks.shift() as Uint8Array).length;
      this.dropped = true;
    }
  }

  text(): string | undefined {
    if (this.size === 0) return undefined;
    const all = Buffer.concat(this.chunks);
    const kept = all.length > this.limit ? all.subarray(all.length - this.limit) : all;
    const cut = this.dropped || kept.length < all.length;
    // Decoding may start inside a multi-byte character: it becomes one U+FFFD.
    const text = kept.toString("utf8").trimEnd();
    return text === "" ? undefined : cut ? `…${text}` : text;
  }
}

/**
 * A runner that starts one process per subagent:
 *
 * - the working directory is the subagent's directory, the prompt arrives on stdin, and the
 *   environment carries `TASK_CONTEXT_WORKSPACE` (the directory), `TASK_CONTEXT_TASK_ID`,
 *   `TASK_CONTEXT_SUBAGENT_TYPE`, `TASK_CONTEXT_CONTEXT_FILE` (`.sage/context/{id}.xml`,
 *   relative to the directory) and `TASK_CONTEXT_SHA256` (the receipt of its CONTEXT.md, to quote
 *   back as `context-sha256`);
 * - with an OpenTelemetry SDK registered, the environment also carries the W3C trace context of
 *   the subagent's `invoke_agent` span as `TRACEPARENT` and `TRACESTATE` (the OpenTelemetry
 *   environment-variable carrier; they replace inherited or given ones), so the child's spans
 *   continue the parent's trace; without an SDK nothing is added;
 * - the process prints its result as JSON on stdout (the subagent output format, wire names) and
 *   exits with code 0; a non-zero exit, no JSON, or more than `maxOutputBytes` on stdout fails
 *   the subagent;
 * - the end of its stderr (`maxLogBytes`) goes into the result's `notes`;
 * - on POSIX it leads its own process group (`detached`). A timeout or abort sends SIGTERM to the
 *   whole group and SIGKILL `killGraceMs` later, so grandchildren do not outlive it; when the
 *   process exits by itself, whatever it left running in its group is stopped the same way.
 *   A descendant that starts its own session (`setsid`) escapes the group. On Windows only the
 *   process itself is killed.
 *
 * Defaults: `killGraceMs` 2 000, `maxOutputBytes` 1 048 576 (1 MiB), `maxLogBytes` 16 384
 * (16 KiB). See https://github.com/task-context/task-context/blob/main/docs/subagents.md#child-process-subagents
 *
 * @example
 * ```ts source="../examples/child-process-runner.ts#childProcessRunner"
 * const runner = childProcessRunner({
 *   command: "/usr/local/bin/coder-agent", // run without a shell
 *   args: ["--json"],
 *   env: { MODEL: "large", DEBUG: undefined }, // added to the inherited environment; undefined removes
 *   killGraceMs: 2_000, // default 2 000: SIGTERM, then SIGKILL this much later
 *   maxOutputBytes: 1_048_576, // default 1 MiB of stdout; more fails the subagent
 *   maxLogBytes: 16_384, // default 16 KiB: the end of stderr kept for notes
 * });
 * const results = await spawnSubagents(
 *   "/srv/agents/run-42",
 *   [{ id: "alt-text-3", subagentType: "implement", prompt: "Write alt text for screenshot 3." }],
 *   { runner, workspacesRoot: "/srv/agents/run-42/subagents" },
 * );
 * ```
 */
export function childProcessRunner(options: ChildProcessRunnerOptions): SubagentRunner {
  requireObject("options", options, "child process runner options with a command");
  const command = processString(
    "command",
    requireText("command", options.command, "the program to run, a non-empty string"),
    "the program to run",
  );
  const args = checkArgs(options.args);
  /** An option's value, checked, or its default when it is undefined (null is refused). */
  const count = (
    name: "killGraceMs" | "maxOutputBytes" | "maxLogBytes",
    fallback: number,
    minimum: number,
    maximum?: number,
  ) =>
    options[name] === undefined
      ? fallback
      : requireWholeNumber(name, options[name], minimum, maximum);
  const killGraceMs = count("killGraceMs", DEFAULT_KILL_GRACE_MS, 0, MAX_TIMER_MS);
  const maxOutputBytes = count("maxOutputBytes", DEFAULT_MAX_OUTPUT_BYTES, 1);
  const maxLogBytes = count("maxLogBytes", DEFAULT_MAX_LOG_BYTES, 0);
  const extraEnv = checkEnv(options.env);

  return {
    name: "child-process",
    stopGraceMs: Math.min(killGraceMs + STOP_MARGIN_MS, MAX_TIMER_MS),
    run(invocation) {
      const { signal } = invocation;
      return new Promise((resolve, reject) => {
        if (signal.aborted) {
          reject(signal.reason);
          return;
        }
        const env: Record<string, string> = {};
        for (const [name, value] of Object.entries({ ...process.env, ...extraEnv })) {
          if (value !== undefined) env[name] = value;
        }
        env.TASK_CONTEXT_WORKSPACE = invocation.directory;
        env.TASK_CONTEXT_TASK_ID = invocation.id;
        env.TASK_CONTEXT_SUBAGENT_TYPE = invocation.subagentType;
        env.TASK_CONTEXT_CONTEXT_FILE = invocation.contextFile;
        env.TASK_CONTEXT_SHA256 = invocation.contextSha256;
        const traceContext = traceEnvironment(); // {} without an SDK: the environment as it was
        if (traceContext.TRACEPARENT !== undefined) {
          delete env.TRACESTATE; // an inherited one belongs to another span
          Object.assign(env, traceContext);
        }

        const cannotStart = (error: unknown) =>
          new SubagentProcessError({
            message: `Could not start subagent process ${JSON.stringify(command)}: ${cannotStartReason(error)}`,
          });
        let child: ChildProcessWithoutNullStreams;
        try {
          child = spawn(command, args, {
            cwd: invocation.directory,
            env,
            detached: !IS_WINDOWS,
            stdio: ["pipe", "pipe", "pipe"],
            windowsHide: true,
          });
        } catch (error) {
          // Some runtimes throw here instead of emitting "error" (a missing program, say).
          reject(cannotStart(error));
          return;
        }
        const stdout: Buffer[] = [];
        let stdoutBytes = 0;
        const stderr = new Tail(maxLogBytes);
        let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
        let stopped: unknown;
        let killTimer: ReturnType<typeof setTimeout> | undefined;

        /** Sends `name` to the whole group; false when nothing was left in it. */
        const signalGroup = (name: NodeJS.Signals): boolean => {
          if (child.pid === undefined) return false;
          try {
            if (IS_WINDOWS) return child.kill(name);
            process.kill(-child.pid, name);
            return true;
          } catch {
            return false; // ESRCH: nothing left in the group.
          }
        };
        /** SIGTERM to the whole group now and, when anything got it, SIGKILL after the grace. */
        const endGroup = () => {
          if (signalGroup("SIGTERM") && killTimer === undefined) {
            killTimer = setTimeout(() => signalGroup("SIGKILL"), killGraceMs);
            // Members that hold no pipe do not delay the result, but still get their SIGKILL.
            killTimer.unref?.();
          }
        };
        const stop = (reason: unknown) => {
          stopped ??= reason;
          endGroup();
        };
        const onAbort = () => stop(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });

        let settled = false;
        const finish = (error: unknown, value?: { output: string; log?: string }) => {
          if (settled) return;
          settled = true;
          signal.removeEventListener("abort", onAbort);
          if (error === undefined && value !== undefined) resolve(value);
          else reject(error);
        };

        child.on("error", (error) => {
          // The process could not be started (ENOENT, EACCES), or a signal could not be sent.
          if (exit !== undefined || child.pid !== undefined) return;
          finish(cannotStart(error));
        });
        child.stdout.on("data", (chunk: Buffer) => {
          if (stopped !== undefined) return;
          stdoutBytes += chunk.length;
          if (stdoutBytes > maxOutputBytes) {
            stop(
              new SubagentProcessError({
                message: `Subagent process wrote more than ${maxOutputBytes} bytes to stdout; it was stopped.`,
              }),
            );
            return;
          }
          stdout.push(chunk);
        });
        child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
        // A process that exits without reading its prompt closes stdin: EPIPE is not a failure.
        child.stdin.on("error", () => {});
        child.stdin.end(invocation.prompt);

        child.on("exit", (code, exitSignal) => {
          exit = { code, signal: exitSignal };
          // The leader is gone; stop anything it left running in its group.
          if (!IS_WINDOWS) endGroup();
        });
        child.on("close", (code, exitSignal) => {
          exit ??= { code, signal: exitSignal };
          const log = stderr.text();
          if (stopped !== undefined) {
            const message = SubagentProcessError.isInstance(stopped)
              ? stopped.message
              : "Subagent process was stopped.";
            finish(new SubagentProcessError({ message, log, cause: stopped }));
            return;
          }
          if (exit.code !== 0) {
            const how =
              exit.signal !== null
                ? `was killed by ${exit.signal}`
                : `exited with code ${exit.code}`;
            finish(new SubagentProcessError({ message: `Subagent process ${how}.`, log }));
            return;
          }
          const output = Buffer.concat(stdout).toString("utf8");
          finish(undefined, log === undefined ? { output } : { output, log });
        });
      });
    },
  };
}
