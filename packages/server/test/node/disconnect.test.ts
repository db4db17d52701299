import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { type Client, createRun, runInput, taskStage } from "../contract/client.ts";
import { EVENTUALLY } from "../contract/harness.ts";

describe("a long poll over a socket", () => {
  const database = openNodeDatabase(":memory:");
  const store = new SqlStore(database);
  const started: number[] = [];
  const waits: Array<{ changed: boolean; aborted: boolean | undefined }> = [];
  // The poll's waits for a change that may offer its agent something.
  const watchOffers = store.watchOffers.bind(store);
  store.watchOffers = (runId, agent) => {
    const watch = watchOffers(runId, agent);
    return {
      ...watch,
      next: async (timeoutMs, signal) => {
        started.push(timeoutMs);
        const result = await watch.next(timeoutMs, signal);
        waits.push({ changed: result, aborted: signal?.aborted });
        return result;
      },
    };
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

  it("stops waiting when its client disconnects", async () => {
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
    // The client goes away once the server waits (earlier, there would be no wait to stop).
    await expect.poll(() => started.length, EVENTUALLY).toBe(1);
    controller.abort();
    await expect(polling).rejects.toMatchObject({ name: "AbortError" });
    await expect.poll(() => waits, EVENTUALLY).toEqual([{ changed: false, aborted: true }]);
  });
});
