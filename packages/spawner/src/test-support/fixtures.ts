// Temporary directories and runners shared by the spawner's tests.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SubagentOutput } from "@task-context/protocols/sage";
import type { SubagentRunner } from "../subagent-runner.ts";

/** A fresh parent workspace and a (not yet created) root for subagent workspaces. */
export interface Fixture {
  base: string;
  parent: string;
  workspacesRoot: string;
  cleanup(): Promise<void>;
}

export const CONTEXT = "# Task context\nWe are building Lumen, a note-taking app for researchers.";

export async function createFixture(
  files: Record<string, string> = { "CONTEXT.md": CONTEXT },
): Promise<Fixture> {
  const base = await mkdtemp(join(tmpdir(), "task-context-spawner-"));
  const parent = join(base, "parent");
  await mkdir(parent);
  for (const [path, content] of Object.entries(files)) {
    const full = join(parent, path);
    await mkdir(join(full, ".."), { recursive: true });
    await writeFile(full, content);
  }
  return {
    base,
    parent,
    workspacesRoot: join(base, "subagents"),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** The entries of `directory`, or undefined when it does not exist. */
export async function entries(directory: string): Promise<string[] | undefined> {
  try {
    return (await readdir(directory)).sort();
  } catch {
    return undefined;
  }
}

export const success = (summary = "done", files: string[] = []): SubagentOutput => ({
  status: "success",
  summary,
  "files-modified": files,
});

/** Resolves when `signal` aborts (with its reason as the rejection), for runners that hang. */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and the function that resolves it, for tests that decide when things finish. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/**
 * True while `pid` is a running process. A zombie (exited, waiting to be reaped) counts as gone:
 * where PID 1 reaps orphans lazily, `kill(pid, 0)` still succeeds on one for a few seconds.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as { code?: string }).code === "ESRCH") return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/**
 * Polls `condition` until it holds. Only a guard against a hung test: after `guardMs` it fails
 * with "blocked", whatever the machine's load.
 */
export async function waitFor(
  condition: () => boolean,
  what: string,
  guardMs = 100_000,
): Promise<void> {
  const deadline = Date.now() + guardMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`blocked: ${what} did not happen`);
    await sleep(10);
  }
}

/**
 * Wraps a runner so that a stop (timeout or abort) reaches it only once its subagent wrote
 * `readyFile` into its directory: however slowly the machine starts the process, it is stopped
 * in the state the test set up. The spawner waits for the stopped runner to settle.
 */
export function stopWhenReady(runner: SubagentRunner, readyFile: string): SubagentRunner {
  return {
    name: `${runner.name} (stopped when ready)`,
    stopGraceMs: (runner.stopGraceMs ?? 0) + 15_000,
    run(invocation) {
      const controller = new AbortController();
      const ready = join(invocation.directory, readyFile);
      invocation.signal.addEventListener(
        "abort",
        () => {
          void waitFor(() => existsSync(ready), `${readyFile} in ${invocation.id}`).finally(() =>
            controller.abort(invocation.signal.reason),
          );
        },
        { once: true },
      );
      return runner.run({ ...invocation, signal: controller.signal });
    },
  };
}
