import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";

/** The built binary every test runs. */
export const CLI = join(dirname(dirname(fileURLToPath(import.meta.url))), "dist", "cli.js");

/** What one run of the binary printed and how it ended. */
export interface CliRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** How to run it: where, with what on stdin, which extra environment, which Node. */
export interface CliRunOptions {
  cwd: string;
  /** The text written to its stdin (default none); ignored with `stdinFd`. */
  stdin?: string;
  /** A descriptor to give it as stdin instead of a pipe, as `< /dev/zero` does. */
  stdinFd?: number;
  /** A descriptor to give it as stdout instead of a pipe, as `> /dev/full` does. */
  stdoutFd?: number;
  env?: Record<string, string | undefined>;
  node?: string;
  /**
   * For input that could hang it: kill it when it has not ended after this many ms, and fail
   * with "blocked" (default: no guard).
   */
  guardMs?: number;
}

/** A running binary: its stdin and stdout are pipes unless `stdinFd`, `stdoutFd` were given. */
export type CliProcess = ChildProcessByStdio<Writable | null, Readable | null, Readable>;

/**
 * Starts `node dist/cli.js …args`. The environment is the test process's without the variables
 * that change colour or the service's address, plus `env`.
 */
export function spawnCli(args: readonly string[], options: CliRunOptions): CliProcess {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of [
    "NO_COLOR",
    "FORCE_COLOR",
    "CI",
    "TASK_CONTEXT_URL",
    "TASK_CONTEXT_TOKEN",
    "TASK_CONTEXT_ADMIN_TOKEN",
  ]) {
    delete env[name];
  }
  Object.assign(env, options.env);
  const child = spawn(options.node ?? process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: [options.stdinFd ?? "pipe", options.stdoutFd ?? "pipe", "pipe"],
  }) as CliProcess;
  child.stdin?.end(options.stdin ?? "");
  return child;
}

/**
 * How long a run of the binary may take before a test calls it blocked. It bounds a hang and
 * asserts no speed: reading 16 MiB took over 20 s with both cores of a CI machine busy.
 */
export const HANG_GUARD_MS = 100_000;

/** Several runs of the binary in one test, on a machine that may be busy. */
export const SLOW_TEST_MS = 300_000;

/**
 * Resolves with the exit code once `child` has ended and its streams closed; with `guardMs`,
 * kills it and rejects with "blocked" when it runs longer.
 */
export function ended(
  child: CliProcess,
  args: readonly string[],
  guardMs?: number,
): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const guard =
      guardMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill("SIGKILL");
            reject(new Error(`blocked: task-context ${args.join(" ")} ran over ${guardMs} ms`));
          }, guardMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(guard);
      resolve(code);
    });
  });
}

/** Runs `node dist/cli.js …args` to its end (see {@link spawnCli}). */
export async function runCli(args: readonly string[], options: CliRunOptions): Promise<CliRun> {
  const child = spawnCli(args, options);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const code = await ended(child, args, options.guardMs);
  return { stdout, stderr, code };
}

/** A fresh temporary folder, removed by the returned function. */
export function temporaryFolder(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), "task-context-cli-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** How a run ended whose stdout the reader closed after the first chunk, as `… | head -1` does. */
export interface ClosedPipeRun {
  /** The first chunk it printed, the only one read. */
  first: string;
  stderr: string;
  code: number | null;
}

/**
 * Runs `node dist/cli.js …args`, reads the first chunk of its stdout and closes the reading
 * end: its next write finds the pipe closed. `whenClosed` runs then (to make a streaming
 * command write again). Kills it and fails with "blocked" after `guardMs`.
 */
export async function runCliClosingStdout(
  args: readonly string[],
  options: CliRunOptions & { guardMs: number; whenClosed?: () => Promise<void> },
): Promise<ClosedPipeRun> {
  const child = spawnCli(args, options);
  const { stdout } = child;
  if (stdout === null) throw new Error("runCliClosingStdout needs stdout as a pipe, not stdoutFd");
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exit = ended(child, args, options.guardMs);
  const first = await new Promise<string>((resolve, reject) => {
    stdout.once("data", (chunk: Buffer) => {
      stdout.destroy();
      resolve(chunk.toString("utf8"));
    });
    exit.then(
      () => reject(new Error(`task-context ${args.join(" ")} ended before printing`)),
      reject,
    );
  });
  await options.whenClosed?.();
  return { first, stderr, code: await exit };
}

/** A `task-context serve` that has printed its three lines. */
export interface Serving {
  child: ReturnType<typeof spawn>;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** What it printed so far (and goes on printing). */
  output(): string;
}

/**
 * Starts `node dist/cli.js serve …args` in `cwd` with only PATH and `env` in its environment (on
 * `node`, default the test's own), and resolves once it has printed its `database:` line (rejects
 * if it exits before).
 */
export async function startServe(
  args: string[],
  { cwd, env = {}, node }: { cwd: string; env?: Record<string, string>; node?: string },
): Promise<Serving> {
  const child = spawn(node ?? process.execPath, [CLI, "serve", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  let output = "";
  child.stdout.setEncoding("utf8");
  await new Promise<void>((resolve, reject) => {
    child.once("exit", () => reject(new Error(`serve exited early: ${output}`)));
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("database:")) resolve();
    });
  });
  child.removeAllListeners("exit");
  return {
    child,
    url: /^listening on (\S+)\n/.exec(output)?.[1] ?? "",
    output: () => output,
  };
}
