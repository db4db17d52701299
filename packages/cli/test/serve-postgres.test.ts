// `task-context serve --database-url`: the service on PostgreSQL (a throwaway server from
// scripts/postgres.mjs), the URL's password never printed; a URL that is not PostgreSQL refused.
import { afterAll, describe, expect, it } from "vitest";
import { findPostgres, type Postgres, startPostgres } from "../../../scripts/postgres.mjs";
import { runCli, startServe, temporaryFolder } from "./run-cli.ts";

const folder = temporaryFolder();
afterAll(() => folder.remove());
const found = await findPostgres();
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

  it.skipIf(reason !== undefined)(
    `serves on PostgreSQL and stops on SIGTERM, printing the URL without its password${reason === undefined ? "" : ` (skipped: PostgreSQL cannot be started here: ${reason})`}`,
    { timeout: 60_000 },
    async () => {
      const postgres = await startPostgres();
      started.push(postgres);
      const { child, url, output } = await startServe(
        ["--port", "0", "--database-url", postgres.url],
        { cwd: folder.path, env: { TASK_CONTEXT_ADMIN_TOKEN: "admin-token-0123456789" } },
      );
      expect(output()).toBe(
        `listening on ${url}\nadmin token: the value of TASK_CONTEXT_ADMIN_TOKEN\ndatabase: postgres://postgres:***@127.0.0.1:${postgres.port}/postgres\n`,
      );
      expect(output()).not.toContain(postgres.password);
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
      expect(output().endsWith("SIGTERM: stopping\n")).toBe(true);
    },
  );
});
