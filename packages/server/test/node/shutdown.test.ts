import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { once } from "node:events";
import { Agent, type IncomingMessage, request, Server } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
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

/** Resolves once this process's HTTP server has begun to handle a request for `path`. */
function requestStarted(path: string): Promise<void> {
  return new Promise((resolve) => {
    const onStart = (message: unknown) => {
      if ((message as { request: IncomingMessage }).request.url !== path) return;
      unsubscribe("http.server.request.start", onStart);
      resolve();
    };
    subscribe("http.server.request.start", onStart);
  });
}

/** Resolves once this process's servers have accepted their next connection. */
function connectionAccepted(): Promise<void> {
  return new Promise((resolve) => {
    const onAccept = () => {
      unsubscribe("net.server.socket", onAccept);
      resolve();
    };
    subscribe("net.server.socket", onAccept);
  });
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
      const path = "/v1/inbox/claim-next?wait=30";
      const handled = requestStarted(path);
      const polling = kept.send(path);
      // The server is handling the long poll: its connection is busy, not idle.
      await handled;
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
    const forced = vi.spyOn(Server.prototype, "closeAllConnections");
    try {
      await server.close();
      // Without closing the connection once its stream ended, the stop waited for its last
      // resort: closing every connection after 5 s (or for the client's keep-alive timeout).
      expect(forced).not.toHaveBeenCalled();
    } finally {
      forced.mockRestore();
    }
    expect(await ended).toContain("event: run.created");
  });

  it("closes a connection that never sent a byte at once, not by the last resort", {
    timeout: 20_000,
  }, async () => {
    const { server } = await startService(folder.path);
    const { hostname, port } = new URL(server.url);
    // What a client's pool leaves: a connection opened ahead, or for a request it then aborted.
    const accepted = connectionAccepted();
    const silent = connect(Number(port), hostname);
    const closed = once(silent, "close");
    await accepted;
    const forced = vi.spyOn(Server.prototype, "closeAllConnections");
    try {
      await server.close();
      // Node counts such a connection as busy: without closing it, the stop waited 5 s for
      // its last resort, closing every connection.
      expect(forced).not.toHaveBeenCalled();
      await closed;
      expect(silent.bytesRead).toBe(0);
    } finally {
      forced.mockRestore();
      silent.destroy();
    }
  });
});
