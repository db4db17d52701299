// Streamable HTTP on a real loopback socket: the documented recipe (examples/http.ts), that is
// createTaskContextHttpHandler of @task-context/mcp/http mounted with @hono/node-server, driven
// by the official clients of both generations and by raw requests.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { memoryWorkspace } from "@task-context/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTaskContextHttpHandler } from "./http.ts";
import { CONTEXT_MD_URI } from "./index.ts";
import { connectOverHttp, GENERATIONS } from "./test-support/client-generations.ts";
import { serveFetch } from "./test-support/fetch-server.ts";
import { CONTEXT, GET_TASK_CONTEXT_RESULT } from "./test-support/fixtures.ts";
import { rawPost, startHttpRecipe } from "./test-support/http-server.ts";
import { collectUpdates } from "./test-support/stdio-client.ts";

let directory: string;
let served: Awaited<ReturnType<typeof startHttpRecipe>>;

beforeEach(async () => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-http-")));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  served = await startHttpRecipe(directory);
});
afterEach(async () => {
  await served.close();
  rmSync(directory, { recursive: true, force: true });
});

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "1.0.0" },
  },
});

/** A JSON-RPC error answer to a request the server did not read (`id: null`). */
const errorBody = (code: number, message: string) => ({
  jsonrpc: "2.0",
  id: null,
  error: { code, message },
});

/** Runs `use` against a handler with `options` on its own loopback server, then closes both. */
async function withHandler(
  options: Omit<Parameters<typeof createTaskContextHttpHandler>[0], "workspace">,
  use: (url: URL, handler: ReturnType<typeof createTaskContextHttpHandler>) => Promise<void>,
): Promise<void> {
  const handler = createTaskContextHttpHandler({
    workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }),
    ...options,
  });
  const server = await serveFetch((request) => handler.fetch(request));
  try {
    await use(server.url, handler);
  } finally {
    await handler.close();
    await server.close();
  }
}

async function connectModern(url: URL): Promise<Client> {
  const client = new Client(
    { name: "task-context-tests", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

describe("the HTTP recipe: calls on both protocol eras", () => {
  it.each(GENERATIONS)(
    "calls get_task_context with the %s client (2025 handshake)",
    async (generation) => {
      const client = await connectOverHttp(generation, served.url);
      const { content, structuredContent } = await client.callTool("get_task_context", {});
      expect({ content, structuredContent }).toEqual(GET_TASK_CONTEXT_RESULT);
      await client.close();
    },
  );

  it("calls get_task_context on the 2026-07-28 revision", async () => {
    const client = await connectModern(served.url);
    const { content, structuredContent } = await client.callTool({
      name: "get_task_context",
      arguments: {},
    });
    expect({ content, structuredContent }).toEqual(GET_TASK_CONTEXT_RESULT);
    await client.close();
  });
});

describe("the HTTP recipe: subscriptions are advertised and served", () => {
  it.each(GENERATIONS)(
    "subscribes with the %s client, is notified when CONTEXT.md changes, and unsubscribes",
    async (generation) => {
      const client = await connectOverHttp(generation, served.url);
      expect(client.capabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
      await client.subscribe(CONTEXT_MD_URI);
      const next = client.nextUpdate();
      writeFileSync(join(directory, "CONTEXT.md"), "changed");
      expect(await next).toBe(CONTEXT_MD_URI);
      await client.unsubscribe(CONTEXT_MD_URI);
      // Another resource can be subscribed to; it is not watched, so it never notifies.
      await client.subscribe("task-context://workspace/context-block");
      await client.close();
    },
  );

  it("notifies a 2026-07-28 listen stream when CONTEXT.md changes", async () => {
    const client = await connectModern(served.url);
    const updates = collectUpdates(client);
    const subscription = await client.listen({ resourceSubscriptions: [CONTEXT_MD_URI] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [CONTEXT_MD_URI] });
    const next = updates.next();
    writeFileSync(join(directory, "CONTEXT.md"), "changed");
    expect(await next).toBe(CONTEXT_MD_URI);
    await subscription.close();
    await client.close();
  });

  it("advertises no subscriptions without changes, on either era", async () => {
    await withHandler({}, async (url) => {
      for (const generation of GENERATIONS) {
        const client = await connectOverHttp(generation, url);
        expect(client.capabilities()?.resources).toEqual({ listChanged: true });
        await client.close();
      }
      const modern = await connectModern(url);
      expect(modern.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
      await modern.close();
    });
  });
});

describe("the HTTP recipe: sessions", () => {
  it("keeps at most maxSessions 2025-era sessions, closing the least recently used", async () => {
    await withHandler({ maxSessions: 2 }, async (bounded, handler) => {
      const first = await rawPost(bounded, INITIALIZE, {});
      const second = await rawPost(bounded, INITIALIZE, {});
      expect([first.status, second.status, handler.sessionCount]).toEqual([200, 200, 2]);
      await rawPost(bounded, INITIALIZE, {});
      expect(handler.sessionCount).toBe(2);
      const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
      const evicted = await rawPost(bounded, ping, {
        "mcp-session-id": String(first.headers["mcp-session-id"]),
        "mcp-protocol-version": "2025-11-25",
      });
      expect(evicted.status).toBe(404);
      expect(JSON.parse(evicted.body)).toEqual(
        errorBody(
          -32001,
          "Session not found: it ended or was never opened. Start a new session with an initialize request.",
        ),
      );
      const kept = await rawPost(bounded, ping, {
        "mcp-session-id": String(second.headers["mcp-session-id"]),
        "mcp-protocol-version": "2025-11-25",
      });
      expect(kept.status).toBe(200);
    });
  });

  it("refuses a 2025-era request without a session, except initialize", async () => {
    const answer = await rawPost(
      served.url,
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      {},
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual(
      errorBody(
        -32000,
        "Bad Request: no Mcp-Session-Id header. Open a session with an initialize request, then send its Mcp-Session-Id header with every request.",
      ),
    );
  });
});

describe("the HTTP recipe: DNS-rebinding protection", () => {
  const refusal = (message: string) => errorBody(-32000, message);

  it("refuses a foreign Host with a 403 that names it", async () => {
    const answer = await rawPost(served.url, INITIALIZE, { host: "evil.example.com" });
    expect(answer.status).toBe(403);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual(
      refusal(
        'Host "evil.example.com" is not allowed: this MCP server answers requests addressed to localhost, 127.0.0.1, [::1] only (protection against DNS rebinding). To serve it under another name, add the name to allowedHosts.',
      ),
    );
    expect(served.handler.sessionCount).toBe(0);
  });

  it("refuses a foreign Origin with a 403 that names it, even with a loopback Host", async () => {
    const answer = await rawPost(served.url, INITIALIZE, { origin: "http://evil.example.com" });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual(
      refusal(
        'Origin "http://evil.example.com" is not allowed: this MCP server answers browser pages from localhost, 127.0.0.1, [::1] only (protection against DNS rebinding). To allow a site, add its host name to allowedOrigins.',
      ),
    );
  });

  it("accepts loopback hosts and origins on any port", async () => {
    for (const host of [`127.0.0.1:${served.url.port}`, "localhost:1", "[::1]:8080"]) {
      const answer = await rawPost(served.url, INITIALIZE, { host, origin: `http://${host}` });
      expect(answer.status).toBe(200);
    }
  });

  it("accepts the hosts and origins it is configured with, and only those", async () => {
    const names = { allowedHosts: ["mcp.example.test"], allowedOrigins: ["app.example.test"] };
    await withHandler(names, async (url) => {
      const allowed = await rawPost(url, INITIALIZE, {
        host: "mcp.example.test",
        origin: "https://app.example.test",
      });
      expect(allowed.status).toBe(200);
      const loopback = await rawPost(url, INITIALIZE, {});
      expect(loopback.status).toBe(403);
    });
  });

  it("refuses options it cannot use", () => {
    const workspace = memoryWorkspace({});
    expect(() =>
      createTaskContextHttpHandler({ workspace, allowedHosts: ["http://x.test"] }),
    ).toThrow(/^Invalid options\.allowedHosts: expected a list of host names/);
    expect(() => createTaskContextHttpHandler({ workspace, maxSessions: 0 })).toThrow(
      /^Invalid options\.maxSessions/,
    );
  });
});
