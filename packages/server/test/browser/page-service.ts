// Node-only: the delivery service on loopback for the browser (startNodeServer on port 0, SQLite
// in memory, the real clock: the page's lease countdown runs on it), with the contract suites'
// client for the runs the tests set up through the HTTP API.
import { startNodeServer } from "../../src/node.ts";
import { Client } from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";

const adminToken = "browser-admin-token-0123456789abcdef";

/** A running service and its admin client. */
export interface PageService extends Service {
  admin: Client;
  /** A view link of a run (`POST /v1/runs/{run_id}/view-links`), asserted 201. */
  viewLink(runId: string, options?: { canRequeue?: boolean }): Promise<string>;
}

/** Starts the service on 127.0.0.1 with an in-memory database. */
export async function startPageService(): Promise<PageService> {
  const server = await startNodeServer({
    port: 0,
    host: "127.0.0.1",
    database: ":memory:",
    adminToken,
    limits: { rateLimit: false },
    sweepMs: 50,
  });
  const service: Service = {
    baseUrl: server.url,
    adminToken,
    fetch: (url, init) => fetch(url, init),
    async advance() {
      throw new Error("the browser tests run on the real clock");
    },
    stop: () => server.close(),
  };
  const admin = new Client(service, adminToken);
  return {
    ...service,
    admin,
    async viewLink(runId, options = {}) {
      const answer = await admin.post<{ url: string; expires_at: string; can_requeue: boolean }>(
        `/v1/runs/${runId}/view-links`,
        { body: options.canRequeue === undefined ? {} : { can_requeue: options.canRequeue } },
      );
      if (answer.status !== 201) throw new Error(`view link: ${answer.status} ${answer.text}`);
      return answer.body.url;
    },
  };
}
