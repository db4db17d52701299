import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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
  stdin?: string;
  env?: Record<string, string | undefined>;
  node?: string;
}

/**
 * Runs `node dist/cli.js …args` to its end. The environment is the test process's without the
 * variables that change colour or the service's address, plus `env`.
 */
export function runCli(args: readonly string[], options: CliRunOptions): Promise<CliRun> {
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
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(options.stdin ?? "");
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ stdout, stderr, code }));
  });
}

/** A fresh temporary folder, removed by the returned function. */
export function temporaryFolder(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), "task-context-cli-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
