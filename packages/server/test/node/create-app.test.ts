import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import type { DeliveryStore } from "../../src/delivery/delivery-store.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { call, mcpClient } from "../contract/mcp.contract.ts";

const adminToken = "app-admin-token-0123456789";
const admin = { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" };
const runBody = JSON.stringify({
  goal: "g",
  constraints: [],
  stages: [{ id: "s", stage_description: "d", expected_output: "o", available_skills: [] }],
});

/** `store` whose `method` fails with an error whose message must not reach the client. */
function failingAt(store: SqlStore, method: keyof DeliveryStore): DeliveryStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === method) {
        return async () => {
          throw new Error("disk on fire at /var/secret/path");
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as DeliveryStore;
}

describe("createApp", () => {
  const databases: Array<{ close(): void }> = [];
  afterEach(() => {
    for (const database of databases.splice(0)) database.close();
  });
  const newStore = () => {
    const database = openNodeDatabase(":memory:");
    databases.push(database);
    return new SqlStore(database);
  };

  it("checks its options", () => {
    const store = newStore();
    expect(() => createApp(undefined as never)).toThrow(/Invalid options/);
    expect(() => createApp({ store, auth: { adminToken: "" } })).toThrow(
      /Invalid options.auth.adminToken/,
    );
    expect(() => createApp({ store: null as never, auth: { adminToken } })).toThrow(
      /Invalid options.store/,
    );
    expect(() => createApp({ store, auth: { adminToken }, limits: { bodyBytes: 0 } })).toThrow(
      /Invalid options.limits.bodyBytes/,
    );
    expect(() =>
      createApp({
        store,
        auth: { adminToken },
        limits: { rateLimit: { requests: 0, windowMs: 1 } },
      }),
    ).toThrow(/Invalid options.limits.rateLimit.requests/);
    expect(() =>
      createApp({ store, auth: { adminToken }, cors: { origins: "*" as never } }),
    ).toThrow(/Invalid options.cors.origins/);
  });

  it("answers CORS for the configured origins only", async () => {
    const app = createApp({
      store: newStore(),
      auth: { adminToken },
      cors: { origins: ["https://app.example"] },
    });
    const allowed = await app.request("/v1/runs", {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
    });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(allowed.headers.get("access-control-allow-headers")).toBe(
      "Authorization,Content-Type,Idempotency-Key,Last-Event-ID,MCP-Protocol-Version,traceparent,tracestate",
    );
    const other = await app.request("/healthz", { headers: { Origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers 500 JSON without the error's message or stack, and reports the error", async () => {
    const reported: unknown[] = [];
    const failing = failingAt(newStore(), "createRun");
    const app = createApp({
      store: failing,
      auth: { adminToken },
      onUnexpectedError: (error) => reported.push(error),
    });
    const answer = await app.request("/v1/runs", { method: "POST", headers: admin, body: runBody });
    expect(answer.status).toBe(500);
    const text = await answer.text();
    expect(JSON.parse(text)).toEqual({
      error:
        "The service failed to answer this request. Try again; if it keeps failing, report it.",
      code: "INTERNAL_ERROR",
    });
    expect(text).not.toContain("secret");
    expect(reported).toEqual([new Error("disk on fire at /var/secret/path")]);
  });

  it("over /mcp: a tool's unexpected failure is INTERNAL_ERROR without its message, reported; a malformed message is not", async () => {
    const reported: unknown[] = [];
    const failing = failingAt(newStore(), "offers");
    const app = createApp({
      store: failing,
      auth: { adminToken },
      onUnexpectedError: (error) => reported.push(error),
    });
    const run = await app.request("/v1/runs", { method: "POST", headers: admin, body: runBody });
    const { run_id } = (await run.json()) as { run_id: string };
    const added = await app.request(`/v1/runs/${run_id}/agents`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ tag: "a" }),
    });
    const { token } = (await added.json()) as { token: string };
    const service = {
      baseUrl: "http://app.test",
      fetch: async (url: string, init?: RequestInit) => app.request(url, init),
    };
    const client = await mcpClient(service, token);
    try {
      const answer = await call(client, "poll_inbox", {});
      expect(answer).toEqual({
        isError: true,
        structured: {
          error:
            "The service failed to answer this request. Try again; if it keeps failing, report it.",
          code: "INTERNAL_ERROR",
        },
        text: "INTERNAL_ERROR: The service failed to answer this request. Try again; if it keeps failing, report it.",
      });
    } finally {
      await client.close();
    }
    expect(reported).toEqual([new Error("disk on fire at /var/secret/path")]);
    const malformed = await app.request("/mcp", {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    expect(reported).toHaveLength(1);
  });

  it("answers waiting long polls at once when its signal aborts", { timeout: 10_000 }, async () => {
    const store = newStore();
    const shutdown = new AbortController();
    const app = createApp({
      store,
      auth: { adminToken },
      signal: shutdown.signal,
      limits: { recheckMs: 60_000 },
    });
    const run = (await (
      await app.request("/v1/runs", { method: "POST", headers: admin, body: runBody })
    ).json()) as {
      run_id: string;
    };
    const agent = (await (
      await app.request(`/v1/runs/${run.run_id}/agents`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ tag: "a" }),
      })
    ).json()) as { token: string };
    const headers = { Authorization: `Bearer ${agent.token}` };
    await app.request("/v1/inbox/claim-next", { method: "POST", headers });
    const waiting = app.request("/v1/inbox/poll?wait=30", { headers });
    shutdown.abort();
    store.close();
    const answer = await waiting;
    expect(await answer.json()).toEqual({ offers: [] });
  });
});
