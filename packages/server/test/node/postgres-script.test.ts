// scripts/postgres.mjs: the throwaway PostgreSQL cluster that tests and benchmarks start. Where
// PostgreSQL cannot be started here (not installed and not installable), the tests that need it are
// skipped with the script's reason in their names.
import { existsSync } from "node:fs";
import { connect } from "node:net";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import {
  findPostgres,
  type Postgres,
  PostgresUnavailableError,
  startPostgres,
} from "../../../../scripts/postgres.mjs";

const found = await findPostgres();
const reason = "reason" in found ? found.reason : undefined;
const title = (name: string) =>
  reason === undefined ? name : `${name} (skipped: PostgreSQL cannot be started here: ${reason})`;

/** Whether something accepts connections on 127.0.0.1:`port`. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

describe.skipIf(reason !== undefined)(title("scripts/postgres.mjs"), () => {
  const started: Postgres[] = [];
  afterAll(async () => {
    for (const server of started) await server.stop();
  });

  it("starts a cluster on 127.0.0.1 with fsync on and a password, and stop() removes it", async () => {
    const server = await startPostgres();
    started.push(server);
    expect(server.url).toBe(
      `postgres://postgres:${server.password}@127.0.0.1:${server.port}/postgres`,
    );
    const sql = postgres(server.url, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql`
        select 1 as one, current_setting('fsync') as fsync,
          current_setting('listen_addresses') as listen`;
      expect([...rows]).toEqual([{ one: 1, fsync: "on", listen: "127.0.0.1" }]);
    } finally {
      await sql.end();
    }
    const intruder = postgres(server.url.replace(server.password, "not-the-password"), { max: 1 });
    try {
      await expect(intruder`select 1`).rejects.toThrow(/password authentication failed/);
    } finally {
      await intruder.end();
    }
    expect(existsSync(server.directory)).toBe(true);
    await server.stop();
    expect(await listening(server.port)).toBe(false);
    expect(existsSync(server.directory)).toBe(false);
    await server.stop(); // idempotent
  });

  it("quotes the server's log when the server does not start, and leaves no folder", async () => {
    const error = await startPostgres({ settings: { shared_buffers: "plenty" } }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PostgresUnavailableError);
    const message = (error as Error).message;
    expect(message).toContain("did not start");
    expect(message).toContain(`invalid value for parameter "shared_buffers": "plenty"`);
    const folder = /--- the server's log ---/.test(message)
      ? /(\/\S*task-context-postgres-[^/\s]+)/.exec(message)?.[1]
      : undefined;
    expect(folder).toBeDefined();
    expect(existsSync(folder ?? "")).toBe(false);
  });
});

describe("scripts/postgres.mjs where PostgreSQL cannot be started", () => {
  it("says why in one line, as PostgresUnavailableError", async () => {
    const before = process.env.TASK_CONTEXT_POSTGRES;
    process.env.TASK_CONTEXT_POSTGRES = "skip: no PostgreSQL\non this machine ";
    try {
      expect(await findPostgres()).toEqual({ reason: "no PostgreSQL on this machine" });
      const error = await startPostgres().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(PostgresUnavailableError);
      expect(error).toMatchObject({
        code: "POSTGRES_UNAVAILABLE",
        message: "no PostgreSQL on this machine",
      });
    } finally {
      if (before === undefined) delete process.env.TASK_CONTEXT_POSTGRES;
      else process.env.TASK_CONTEXT_POSTGRES = before;
    }
  });
});
