// The contract suites' service as users run it: the built bin (`dist/main.js`, the package's
// `task-context-server`) in a process of its own, configured by the environment, on an SQLite file
// — not src/, which the bundler may have changed on its way to dist/. Its clock is moved over IPC
// (clock-preload.mjs), as the in-process services move theirs.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Service, ServiceOptions, StartService } from "../contract/harness.ts";
import { temporaryFolder } from "../node/services.ts";

/** The bin as the package declares it (`bin.task-context-server`). */
export const builtBin = fileURLToPath(new URL("../../dist/main.js", import.meta.url));
const clockPreload = fileURLToPath(new URL("clock-preload.mjs", import.meta.url));
const adminToken = "built-bin-admin-token-0123456789abcdef";

/** The variables that give the bin a suite's options. */
function environmentOf(options: ServiceOptions): Record<string, string> {
  const rateLimit = options.rateLimit ?? false;
  return {
    TASK_CONTEXT_RATE_LIMIT:
      rateLimit === false ? "off" : `${rateLimit.requests}/${rateLimit.windowMs / 1000}`,
    ...(options.bodyBytes === undefined
      ? {}
      : { TASK_CONTEXT_BODY_BYTES: String(options.bodyBytes) }),
    ...(options.keepAliveMs === undefined
      ? {}
      : { TASK_CONTEXT_KEEP_ALIVE_MS: String(options.keepAliveMs) }),
    ...(options.recheckMs === undefined
      ? {}
      : { TASK_CONTEXT_RECHECK_MS: String(options.recheckMs) }),
    ...(options.secrets === undefined ? {} : { TASK_CONTEXT_SECRETS: options.secrets }),
    ...(options.tracePropagator === undefined
      ? {}
      : { TEST_TRACE_PROPAGATOR: options.tracePropagator }),
  };
}

/** Resolves with the URL the process prints (`listening on <url>`), or rejects with its output. */
function listening(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code, signal) =>
      reject(new Error(`the built bin exited (${code ?? signal}) before listening:\n${output()}`)),
    );
  });
}

/** The built bin, started with a suite's options; fails with a clear message before a build. */
export const builtBinService: StartService = async (options = {}) => {
  if (!existsSync(builtBin)) {
    throw new Error(`${builtBin} does not exist: build the package first (pnpm run build).`);
  }
  const folder = temporaryFolder();
  let output = "";
  const child = spawn(process.execPath, ["--import", clockPreload, builtBin], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: "0",
      HOST: "127.0.0.1",
      TASK_CONTEXT_DB: join(folder.path, "service.db"),
      TASK_CONTEXT_ADMIN_TOKEN: adminToken,
      ...environmentOf(options),
    },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = await listening(child, () => output);
  return {
    baseUrl,
    adminToken,
    fetch: (url, init) => fetch(url, init),
    advance: (milliseconds) =>
      new Promise<void>((resolve, reject) => {
        child.once("message", () => resolve());
        child.send({ advance: milliseconds }, (error) => error && reject(error));
      }),
    async stop() {
      child.kill("SIGTERM");
      await exited;
      folder.remove();
    },
  } satisfies Service;
};
