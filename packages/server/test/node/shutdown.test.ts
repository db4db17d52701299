import { Agent, request } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startNodeServer } from "../../src/node.ts";
import { createRun, runInput, taskStage } from "../contract/client.ts";
import { temporaryFolder } from "./services.ts";

const adminToken = "shutdown-admin-token-0123456789";

/** One kept-alive connection: requests go one after the other on the same socket. */
function connection(url: string, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(url);
  return {
    send: (path: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const sent = request(
          {
            agent,
            hostname,
            port,
            path,
            method: "POST",
            headers: { Authorization: `Bearer ${token}` },
          },
          (response) => {
            response.resume();
            response.on("end", () =>
              resolve({
                status: response.statusCode ?? 0,
                connection: response.headers.connection,
              }),
            );
          },
        );
        sent.on("error", reject);
        sent.end();
      }),
    close: () => agent.destroy(),
  };
}

/** The Node server on a file in `folder`, and the contract suites' view of it. */
async function startService(folder: string) {
  const server = await startNodeServer({
    port: 0,
    database: join(folder, "edge.db"),
    adminToken,
    limits: { rateLimit: false },
  });
  const service = {
    baseUrl: server.url,
    adminToken,
    fetch: (url: string, init?: RequestInit) => fetch(url, init),
    advance: async () => undefined,
    stop: () => server.close(),
  };
  return { server, service };
}

describe("stopping the Node server", () => {
  const folder = temporaryFolder();
  afterEach(() => folder.remove());

  it("answers the request in flight on a kept-alive connection with Connection: close, and serves that connection nothing more", {
    timeout: 20_000,
  }, async () => {
    const { server, service } = await startService(folder.path);
    const { agent } = await createRun(service, runInput([taskStage("draft")]));
    const worker = await agent("worker");
    await worker.claimNext(); // nothing is on offer any more: the next claim waits
    const kept = connection(server.url, worker.token ?? "");
    try {
      const polling = kept.send("/v1/inbox/claim-next?wait=30");
      // The long poll is sent before this request on another connection, which is answered after
      // the server read it: the long poll is waiting.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closed = server.close();

      // The long poll answers at once (nothing on offer), and says the connection ends.
      expect(await polling).toEqual({ status: 204, connection: "close" });
      // The client's next request on that connection finds no server: it was not served.
      const answersAfterClose: unknown[] = [];
      const next = async () => {
        for (;;) answersAfterClose.push(await kept.send("/v1/inbox/claim-next"));
      };
      await expect(next()).rejects.toMatchObject({ code: "ECONNREFUSED" });
      expect(answersAfterClose).toEqual([]);
      await closed;
    } finally {
      kept.close();
      await server.close();
    }
  });

  it("ends an event stream that began before the stop and closes its kept-alive connection at once", {
    timeout: 20_000,
  }, async () => {
    const { server, service } = await startService(folder.path);
    const { run, agent } = await createRun(service, runInput([taskStage("draft")]));
    const worker = await agent("worker");
    const stream = await fetch(`${server.url}/v1/runs/${run.run_id}/events`, {
      headers: { Authorization: `Bearer ${worker.token}`, Accept: "text/event-stream" },
    });
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const ended = stream.text();
    const started = performance.now();
    await server.close();
    // Without closing the connection once its stream ended, the stop waited for the 5 s
    // fallback (or the client's keep-alive timeout).
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await ended).toContain("event: run.created");
  });
});
