// `task-context serve --database-url`: the service on PostgreSQL (a throwaway server from
// scripts/postgres.mjs), the URL's password never printed; a URL that is not PostgreSQL refused.
import { afterAll, describe, expect, it } from "vitest";
import { findPostgres, type Postgres, startPostgres } from "../../../scripts/postgres.mjs";
import { runCli, startServe, temporaryFolder } from "./run-cli.ts";

const folder = temporaryFolder();
afterAll(() => folder.remove());
const found = await findPostgres();
// The root script that finds the machine's own Node (Node 20 here), as the runtime tests use it.
const systemNodeScript: string = new URL("../../../scripts/system-node.mjs", import.meta.url).href;
const reason = "reason" in found ? found.reason : undefined;

describe("task-context serve --database-url", () => {
  it("refuses a URL that is not PostgreSQL, exit 2", async () => {
    expect(await runCli(["serve", "--database-url", "mysql://db/x"], { cwd: folder.path })).toEqual(
      {
        stdout: "",
        stderr:
          "task-context: option '--database-url <url>' argument 'mysql://db/x' is invalid. expected a PostgreSQL URL such as postgres://user:password@host:5432/database\nhint: run `task-context serve --help` to see the usage\n",
        code: 2,
      },
    );
  });

  const started: Postgres[] = [];
  afterAll(async () => {
    for (const server of started) await server.stop();
  });

  /** The one PostgreSQL server of this file, started on first use. */
  let postgresServer: Promise<Postgres> | undefined;
  const postgres = () => {
    postgresServer ??= startPostgres().then((server) => {
      started.push(server);
      return server;
    });
    return postgresServer;
  };
  const skipped =
    reason === undefined ? "" : ` (skipped: PostgreSQL cannot be started here: ${reason})`;

  /**
   * Starts `serve --database-url` (on `node`, default the toolchain's), creates a run through it
   * and stops it with SIGTERM (exit 0); resolves with its address and all it printed.
   */
  async function serveOnPostgres(node?: string): Promise<{ url: string; printed: string }> {
    const { child, url, output } = await startServe(
      ["--port", "0", "--database-url", (await postgres()).url],
      {
        cwd: folder.path,
        env: { TASK_CONTEXT_ADMIN_TOKEN: "admin-token-0123456789" },
        ...(node === undefined ? {} : { node }),
      },
    );
    const created = await fetch(`${url}/v1/runs`, {
      method: "POST",
      headers: {
        Authorization: "Bearer admin-token-0123456789",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        goal: "Launch Lumen",
        constraints: [],
        stages: [{ id: "d", stage_description: "w", expected_output: "m", available_skills: [] }],
      }),
    });
    expect(created.status).toBe(201);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    return { url, printed: output() };
  }

  /** What `serve` prints at `url` on this file's PostgreSQL, from start to SIGTERM. */
  const printedAt = async (url: string) =>
    `listening on ${url}\nadmin token: the value of TASK_CONTEXT_ADMIN_TOKEN\ndatabase: postgres://postgres:***@127.0.0.1:${(await postgres()).port}/postgres\nSIGTERM: stopping\n`;

  it.skipIf(reason !== undefined)(
    `serves on PostgreSQL and stops on SIGTERM, printing the URL without its password${skipped}`,
    { timeout: 60_000 },
    async () => {
      const { url, printed } = await serveOnPostgres();
      expect(printed).toBe(await printedAt(url));
      expect(printed).not.toContain((await postgres()).password);
    },
  );

  it.skipIf(reason !== undefined)(
    `serves on PostgreSQL on the machine's Node 20 (no node:sqlite needed)${skipped}`,
    { timeout: 60_000 },
    async () => {
      const { systemNode } = (await import(systemNodeScript)) as { systemNode: () => string };
      const { url, printed } = await serveOnPostgres(systemNode());
      expect(printed).toBe(await printedAt(url));
    },
  );
});
