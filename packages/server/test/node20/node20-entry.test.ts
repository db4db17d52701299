// The built Node entry (dist/, what `npm install @task-context/server` ships) on the machine's own
// Node 20 (scripts/system-node.mjs), which has no node:sqlite: it imports, serves on PostgreSQL,
// and refuses the embedded SQLite store with UNSUPPORTED_RUNTIME naming the Node it needs.
import { type ChildProcessByStdio, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createServiceClient } from "@task-context/client";
import { afterAll, describe, expect, it } from "vitest";
import { SQLITE_NODE } from "../../src/sqlite-unavailable-error.ts";
import { temporaryFolder } from "../node/services.ts";
import { newDatabase, reason as postgresReason } from "../postgres/services.ts";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const systemNodeScript: string = new URL("../../../../scripts/system-node.mjs", import.meta.url)
  .href;
const { systemNode } = (await import(systemNodeScript)) as { systemNode: () => string };
const node = systemNode();
const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim().slice(1);
const [major = 0, minor = 0] = version.split(".").map(Number);
/** Why these tests cannot run here, or undefined. */
const skipped =
  major > 22 || (major === 22 && minor >= 13)
    ? `the machine's Node is ${version}, which has node:sqlite`
    : !existsSync(join(dist, "main.js"))
      ? "dist/ is not built (pnpm run build)"
      : undefined;
const title = (name: string, also?: string) =>
  skipped === undefined && also === undefined
    ? name
    : `${name} (skipped: ${skipped ?? `PostgreSQL cannot be started here: ${also}`})`;

const folder = temporaryFolder();
afterAll(() => folder.remove());
// Started now (about 3 s), while the tests that need no database run.
const postgres = skipped === undefined && postgresReason === undefined ? newDatabase() : undefined;
postgres?.catch(() => {}); // its test reports a failure to start

/** The refusal every SQLite path gives on this Node. */
const refusal = (nodeVersion: string) =>
  `The embedded SQLite store needs node:sqlite, built into Node ${SQLITE_NODE} and later, and this is Node ${nodeVersion}. Run on Node ${SQLITE_NODE} or later (Node 24 is the current LTS), or use PostgreSQL (databaseUrl, TASK_CONTEXT_DATABASE_URL), which runs on Node 20.`;

/** Runs the machine's Node with `args` to its end (without blocking: PostgreSQL starts meanwhile). */
function runNode(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const child = spawn(node, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("close", (status) => resolve({ status, stdout, stderr })),
  );
}

/** Starts dist/main.js on the machine's Node and resolves once it prints its address. */
async function startMain(env: Record<string, string>) {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(
    node,
    [join(dist, "main.js")],
    { env: { PATH: process.env.PATH ?? "", PORT: "0", ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`exited ${code} before listening: ${output}`)));
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
  });
  child.removeAllListeners("exit");
  return { child, url, output: () => output };
}

describe.skipIf(skipped !== undefined)("@task-context/server (dist/) on the machine's Node", () => {
  it(
    title(
      "imports ./node; opening SQLite (openNodeDatabase, startNodeServer) throws UNSUPPORTED_RUNTIME naming Node 22.13, writing nothing",
    ),
    async () => {
      const database = join(folder.path, "never", "task-context.db");
      const probe = `
        const { openNodeDatabase, startNodeServer, SqliteUnavailableError } = await import(${JSON.stringify(pathToFileURL(join(dist, "node.js")).href)});
        const seen = (error) => ({ isInstance: SqliteUnavailableError.isInstance(error), name: error.name, code: error.code, requiredNode: error.requiredNode, nodeVersion: error.nodeVersion, message: error.message });
        let opened, started;
        try { openNodeDatabase(${JSON.stringify(database)}); } catch (error) { opened = seen(error); }
        await startNodeServer({ port: 0, adminToken: "a", database: ${JSON.stringify(database)} }).catch((error) => { started = seen(error); });
        console.log(JSON.stringify({ opened, started }));`;
      const result = await runNode(["--input-type=module", "-e", probe]);
      expect(result.stderr).toBe("");
      const expected = {
        isInstance: true,
        name: "SqliteUnavailableError",
        code: "UNSUPPORTED_RUNTIME",
        requiredNode: "22.13",
        nodeVersion: version,
        message: refusal(version),
      };
      expect(JSON.parse(result.stdout)).toEqual({ opened: expected, started: expected });
      expect(existsSync(join(folder.path, "never"))).toBe(false);
    },
  );

  it(
    title("task-context-server without a database URL: the refusal in one line, exit 1"),
    async () => {
      const result = await runNode([join(dist, "main.js")], {
        env: { PATH: process.env.PATH ?? "", PORT: "0", TASK_CONTEXT_ADMIN_TOKEN: "a" },
        cwd: folder.path,
      });
      expect(result).toMatchObject({ status: 1, stdout: "", stderr: `${refusal(version)}\n` });
      expect(existsSync(join(folder.path, ".data"))).toBe(false);
    },
  );

  it.skipIf(postgresReason !== undefined)(
    title(
      "task-context-server on PostgreSQL serves a run to completion on Node 20, and stops on SIGTERM",
      postgresReason,
    ),
    { timeout: 60_000 },
    async () => {
      const database = await (postgres ?? newDatabase());
      const { child, url, output } = await startMain({
        TASK_CONTEXT_DATABASE_URL: database.url,
        TASK_CONTEXT_ADMIN_TOKEN: "node20-admin-token",
      });
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      try {
        const admin = createServiceClient({ url, token: "node20-admin-token" });
        const run = await admin.createRun({
          goal: "Launch Lumen",
          constraints: [],
          stages: [
            { id: "draft", stage_description: "w", expected_output: "m", available_skills: [] },
          ],
        });
        const { token } = await admin.addAgent(run.run_id, { tag: "writer" });
        const writer = createServiceClient({ url, token });
        const claimed = await writer.claimNext();
        expect(claimed?.work_item.stage_id).toBe("draft");
        await writer.complete(claimed?.work_item.id ?? "", {
          attempt: claimed?.lease.attempt ?? 0,
          artifact: { media_type: "text/markdown", content: "# Lumen" },
        });
        expect((await admin.getRun(run.run_id)).status).toBe("completed");
      } finally {
        child.kill("SIGTERM");
        expect(await exited).toBe(0);
        await database.drop();
      }
      expect(output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\nSIGTERM: stopping\n$/);
    },
  );
});
