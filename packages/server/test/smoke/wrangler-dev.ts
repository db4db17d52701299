// `wrangler dev` (local, no account) as the suites start it: a Worker configured by a
// wrangler.jsonc of the tests, bundled by wrangler from this package's built entries, on wrangler's
// own workerd, over a socket on 127.0.0.1.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/** A running `wrangler dev`. */
export interface WranglerDev {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** What wrangler printed so far. */
  output(): string;
  /** Stops it (SIGTERM) and removes its state. */
  stop(): Promise<void>;
}

/**
 * Starts `wrangler dev --config=<config>` (relative to the package) with `vars` as `--var`s, and
 * resolves once it says it is ready (at most 90 s, however busy the machine).
 */
export async function startWranglerDev(
  config: string,
  vars: Record<string, string>,
): Promise<WranglerDev> {
  const port = await freePort();
  const state = mkdtempSync(join(tmpdir(), "task-context-wrangler-"));
  const child = spawn(
    process.execPath,
    [
      join(root, "node_modules/wrangler/bin/wrangler.js"),
      "dev",
      `--config=${config}`,
      "--ip=127.0.0.1",
      `--port=${port}`,
      ...Object.entries(vars).map(([name, value]) => `--var=${name}:${value}`),
      `--persist-to=${state}`,
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", CI: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(state, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`blocked: not ready:\n${output}`)), 90_000);
      const look = (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready on http:\/\/127\.0\.0\.1:\d+/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on("data", look);
      child.stderr?.on("data", look);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`wrangler dev exited (${code}):\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
