// examples/postgres-store.ts run as a user runs it (its own process, Node's type stripping) on a
// new database; and what a wrong URL or an unreachable server gets.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startNodeServer } from "../../src/node.ts";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import { newDatabase, reason, title } from "./services.ts";

const run = promisify(execFile);
const example = fileURLToPath(new URL("../../examples/postgres-store.ts", import.meta.url));

describe.skipIf(reason !== undefined)(title("PostgresStore, as a user opens it"), () => {
  it("examples/postgres-store.ts creates a run on TASK_CONTEXT_DATABASE_URL", async () => {
    const database = await newDatabase();
    try {
      const { stdout } = await run(
        process.execPath,
        ["--conditions=@task-context/source", example],
        { env: { ...process.env, TASK_CONTEXT_DATABASE_URL: database.url }, timeout: 20_000 },
      );
      expect(stdout).toBe("201 active true\n");
    } finally {
      await database.drop();
    }
  });
});

describe("PostgresStore.open", () => {
  it("refuses what is not a PostgreSQL URL, and options out of range, before connecting", async () => {
    await expect(PostgresStore.open("mysql://db/x")).rejects.toThrow(
      "Invalid url: expected a PostgreSQL URL such as postgres://user:password@host:5432/database.",
    );
    await expect(
      PostgresStore.open("postgres://127.0.0.1:1/x", { maxConnections: 0 }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", argument: "options.maxConnections" });
  });

  it("is what startNodeServer's databaseUrl names: another URL is refused before anything starts", async () => {
    await expect(
      startNodeServer({
        port: 0,
        adminToken: "admin-token-0123456789",
        databaseUrl: "mysql://db/x",
      }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", argument: "databaseUrl" });
  });

  it("rejects, and leaves nothing open, when the server cannot be reached", async () => {
    await expect(PostgresStore.open("postgres://task:secret@127.0.0.1:1/x")).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
  });
});
