// The service as its own process (`src/main.ts`, the `task-context-server` bin) on an SQLite file
// (or a PostgreSQL database, TASK_CONTEXT_DATABASE_URL), which the checker kills (SIGKILL) or
// stops (SIGTERM) and starts again on the same database.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Restart } from "./history.ts";

const nodeEntry = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/** A server process that can be restarted. */
export interface ServerProcess {
  /** The current server's `http://127.0.0.1:<port>` (the port changes on a restart). */
  url(): string;
  /** The current server's process id (benchmarks read its CPU time and memory). */
  pid(): number;
  /** Resolves when a server listens: at once, or when the restart under way is done. */
  up(): Promise<void>;
  /** Kills or stops the server, then starts a new one on the same database file. */
  restart(signal: Restart["signal"]): Promise<Restart>;
  /** Stops the server with SIGTERM; resolves with what it wrote to stderr over its lives. */
  stop(): Promise<string>;
}

interface Life {
  child: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `src/main.ts` on the SQLite file `database` (or on the PostgreSQL database that
 * `environment` names in TASK_CONTEXT_DATABASE_URL, `database` then unset) with no rate limit
 * (the checker sends many requests), or another `entry` that prints `listening on <url>` too (a
 * benchmark's baseline server).
 */
export async function startServerProcess({
  database,
  adminToken,
  now,
  entry = nodeEntry,
  environment = {},
  nodeOptions = [],
}: {
  /** The SQLite file; unset when `environment` has TASK_CONTEXT_DATABASE_URL. */
  database?: string;
  adminToken: string;
  /** The monotonic clock restarts are recorded with. */
  now: () => number;
  entry?: string;
  /** More environment variables. */
  environment?: Record<string, string>;
  /** More options for node (e.g. `--cpu-prof`). */
  nodeOptions?: string[];
}): Promise<ServerProcess> {
  let errors = "";
  const launch = async (): Promise<Life> => {
    const options = ["--conditions=@task-context/source", ...nodeOptions, entry];
    const child = spawn(process.execPath, options, {
      env: {
        ...process.env,
        PORT: "0",
        HOST: "127.0.0.1",
        ...(database === undefined ? {} : { TASK_CONTEXT_DB: database }),
        TASK_CONTEXT_ADMIN_TOKEN: adminToken,
        TASK_CONTEXT_RATE_LIMIT: "off",
        ...environment,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`blocked: the server did not start: ${output}${errors}`)),
        60_000,
      );
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      void exited.then(({ code }) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code} before listening: ${errors}`));
      });
    });
    return { child, url, exited };
  };

  let life = await launch();
  let ready: Promise<void> = Promise.resolve();
  const kill = async (signal: Restart["signal"]) => {
    life.child.kill(signal);
    const { code, signal: killedBy } = await life.exited;
    const expected = signal === "SIGKILL" ? killedBy === "SIGKILL" : code === 0;
    if (!expected) {
      throw new Error(`the server ended with ${code ?? killedBy} on ${signal}: ${errors}`);
    }
  };
  return {
    url: () => life.url,
    pid: () => life.child.pid ?? 0,
    up: () => ready,
    async restart(signal) {
      const previous = ready;
      const restarted = (async () => {
        await previous;
        await kill(signal);
        life = await launch();
      })();
      ready = restarted;
      await previous;
      const killedAt = now();
      const killedAtEpoch = Date.now();
      await restarted;
      return { signal, killedAt, upAt: now(), killedAtEpoch, upAtEpoch: Date.now() };
    },
    async stop() {
      await ready;
      await kill("SIGTERM");
      return errors;
    },
  };
}
