import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { type Client, createRun, runInput, taskStage } from "../contract/client.ts";

describe("a long poll over a socket", () => {
  const database = openNodeDatabase(":memory:");
  const store = new SqlStore(database);
  const waits: Array<{ changed: boolean; aborted: boolean | undefined }> = [];
  const changed = store.changed.bind(store);
  store.changed = async (runId, after, options) => {
    const result = await changed(runId, after, options);
    waits.push({ changed: result, aborted: options.signal?.aborted });
    return result;
  };
  const app = createApp({
    store,
    auth: { adminToken: "disconnect-admin-token" },
    limits: { rateLimit: false, recheckMs: 60_000 },
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    database.close();
  });

  it("stops waiting when its client disconnects", { timeout: 10_000 }, async () => {
    const { port } = server.address() as AddressInfo;
    const service = {
      baseUrl: `http://127.0.0.1:${port}`,
      adminToken: "disconnect-admin-token",
      fetch: (url: string, init?: RequestInit) => fetch(url, init),
      advance: async () => undefined,
      stop: async () => undefined,
    };
    const { agent } = await createRun(service, runInput([taskStage("draft")]));
    const worker: Client = await agent("worker");
    await worker.claimNext();
    const controller = new AbortController();
    const polling = fetch(worker.url("/v1/inbox/poll", { wait: 30 }), {
      headers: { Authorization: `Bearer ${worker.token}` },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(polling).rejects.toMatchObject({ name: "AbortError" });
    await expect.poll(() => waits, { timeout: 5000 }).toEqual([{ changed: false, aborted: true }]);
  });
});
