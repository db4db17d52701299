import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../src/node.ts";
import { temporaryFolder } from "./services.ts";

const entry = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

describe("src/main.ts (task-context-server) and settingsFromEnv", () => {
  const folder = temporaryFolder();
  afterEach(() => folder.remove());

  it("reads PORT, HOST, TASK_CONTEXT_DB, TASK_CONTEXT_DURABILITY, TASK_CONTEXT_ADMIN_TOKEN, TASK_CONTEXT_RATE_LIMIT, TASK_CONTEXT_CORS_ORIGINS and TASK_CONTEXT_SECRETS", () => {
    expect(
      settingsFromEnv({
        PORT: "9000",
        HOST: "0.0.0.0",
        TASK_CONTEXT_DB: ":memory:",
        TASK_CONTEXT_DURABILITY: "machine",
        TASK_CONTEXT_ADMIN_TOKEN: "secret",
        TASK_CONTEXT_RATE_LIMIT: "10/1",
        TASK_CONTEXT_CORS_ORIGINS: " https://app.example.com, http://localhost:5173 ,",
        TASK_CONTEXT_SECRETS: "refuse",
      }),
    ).toEqual({
      port: 9000,
      host: "0.0.0.0",
      database: ":memory:",
      durability: "machine",
      adminToken: "secret",
      generatedAdminToken: false,
      limits: { rateLimit: { requests: 10, windowMs: 1000 } },
      cors: { origins: ["https://app.example.com", "http://localhost:5173"] },
      secrets: "refuse",
    });
  });

  it("defaults to 127.0.0.1:8787, .data/task-context.db and a generated admin token", () => {
    const options = settingsFromEnv({});
    expect(options).toMatchObject({
      port: 8787,
      host: "127.0.0.1",
      database: ".data/task-context.db",
      generatedAdminToken: true,
      limits: { rateLimit: { requests: 1200, windowMs: 60_000 } },
      secrets: "redact",
    });
    expect(options.adminToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(settingsFromEnv({}).adminToken).not.toBe(options.adminToken);
  });

  it("refuses a bad PORT or TASK_CONTEXT_RATE_LIMIT with the variable's name", () => {
    expect(() => settingsFromEnv({ PORT: "http" })).toThrow(/Invalid PORT/);
    expect(() => settingsFromEnv({ PORT: "70000" })).toThrow(/Invalid PORT/);
    for (const limit of ["fast", "0/10", "10/0", "10/", "-1/5"]) {
      expect(() => settingsFromEnv({ TASK_CONTEXT_RATE_LIMIT: limit })).toThrow(
        /Invalid TASK_CONTEXT_RATE_LIMIT/,
      );
    }
    expect(() => settingsFromEnv({ TASK_CONTEXT_DURABILITY: "disk" })).toThrow(
      'Invalid TASK_CONTEXT_DURABILITY: expected "process" (a commit survives a crash of the process) or "machine" (each commit is on disk before its answer), got "disk".',
    );
    expect(settingsFromEnv({}).durability).toBe("process");
    expect(settingsFromEnv({}).databaseUrl).toBeUndefined();
    expect(
      settingsFromEnv({
        TASK_CONTEXT_DATABASE_URL: "postgres://task:secret@db.internal:5432/task_context",
        TASK_CONTEXT_DATABASE_POOL: "20",
      }),
    ).toMatchObject({
      databaseUrl: "postgres://task:secret@db.internal:5432/task_context",
      databasePool: 20,
    });
    expect(() => settingsFromEnv({ TASK_CONTEXT_DATABASE_URL: "mysql://db/x" })).toThrow(
      "Invalid TASK_CONTEXT_DATABASE_URL: expected a PostgreSQL URL such as postgres://user:password@host:5432/database.",
    );
    expect(() => settingsFromEnv({ TASK_CONTEXT_DATABASE_POOL: "5" })).toThrow(
      "Invalid TASK_CONTEXT_DATABASE_POOL: is set without TASK_CONTEXT_DATABASE_URL; set both, or neither.",
    );
    expect(() =>
      settingsFromEnv({
        TASK_CONTEXT_DATABASE_URL: "postgres://db/x",
        TASK_CONTEXT_DATABASE_POOL: "0",
      }),
    ).toThrow(/TASK_CONTEXT_DATABASE_POOL/);
    expect(() => settingsFromEnv({ TASK_CONTEXT_SECRETS: "hide" })).toThrow(
      'Invalid TASK_CONTEXT_SECRETS: expected "redact", "refuse" or "allow", got "hide".',
    );
    expect(settingsFromEnv({ TASK_CONTEXT_SECRETS: "" }).secrets).toBe("redact");
    expect(settingsFromEnv({ TASK_CONTEXT_RATE_LIMIT: "off" }).limits).toEqual({
      rateLimit: false,
    });
  });

  it("keeps CORS off without TASK_CONTEXT_CORS_ORIGINS, and refuses an entry that is not an origin", () => {
    expect(settingsFromEnv({ TASK_CONTEXT_CORS_ORIGINS: " " }).cors).toBeUndefined();
    expect(settingsFromEnv({}).cors).toBeUndefined();
    for (const entry of [
      "*",
      "app.example.com",
      "https://app.example.com/",
      "ftp://files.example",
    ]) {
      expect(() =>
        settingsFromEnv({ TASK_CONTEXT_CORS_ORIGINS: `http://localhost:5173,${entry}` }),
      ).toThrow(
        `Invalid TASK_CONTEXT_CORS_ORIGINS: expected comma-separated origins such as https://app.example.com (a scheme, a host and an optional port, no path or trailing slash), got ${JSON.stringify(entry)}.`,
      );
    }
  });

  it("starts, prints its address and the generated admin token, and stops on SIGTERM", {
    timeout: 20_000,
  }, async () => {
    const child = spawn(process.execPath, ["--conditions=@task-context/source", entry], {
      env: {
        ...process.env,
        PORT: "0",
        TASK_CONTEXT_DB: join(folder.path, "db", "edge.db"),
        TASK_CONTEXT_ADMIN_TOKEN: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`blocked: no address in ${output}`)),
        100_000,
      );
      child.stdout.on("data", () => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const token = /admin token: (\S+)/.exec(output)?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ status: "ok" });
    const created = await fetch(`${url}/v1/runs`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        goal: "g",
        constraints: [],
        stages: [{ id: "s", stage_description: "d", expected_output: "o", available_skills: [] }],
      }),
    });
    expect(created.status).toBe(201);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("SIGTERM: stopping");
  });
});
