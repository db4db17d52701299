// Streamable HTTP on a real socket: the SDK's web-standard handler (createMcpHandler) builds one
// createTaskContextServer per request, as apps/edge's /mcp endpoint will; CONTEXT.md changes go
// out on the handler's notifier (examples/http.ts).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTaskContextHandler } from "../examples/http.ts";
import { CONTEXT_MD_URI } from "./index.ts";
import { type FetchServer, serveFetch } from "./test-support/fetch-server.ts";
import { CONTEXT, GET_TASK_CONTEXT_RESULT } from "./test-support/fixtures.ts";
import { collectUpdates } from "./test-support/stdio-client.ts";

let directory: string;
let served: FetchServer;
let stop: () => Promise<void>;

beforeEach(async () => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-http-")));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  const { handler, stopWatching } = createTaskContextHandler(directory);
  served = await serveFetch((request) => handler.fetch(request));
  stop = async () => {
    stopWatching();
    await handler.close();
    await served.close();
  };
});
afterEach(async () => {
  await stop();
  rmSync(directory, { recursive: true, force: true });
});

async function connect(modern: boolean): Promise<Client> {
  const client = new Client(
    { name: "task-context-tests", version: "1.0.0" },
    modern ? { versionNegotiation: { mode: "auto" } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(served.url));
  return client;
}

describe("the server over Streamable HTTP (createMcpHandler on a loopback socket)", () => {
  it.each([
    ["the 2025 handshake", false],
    ["the 2026-07-28 revision", true],
  ])("calls get_task_context (%s)", async (_era, modern) => {
    const client = await connect(modern);
    const { content, structuredContent } = await client.callTool({
      name: "get_task_context",
      arguments: {},
    });
    expect({ content, structuredContent }).toEqual(GET_TASK_CONTEXT_RESULT);
    await client.close();
  });

  it("notifies a listen stream when CONTEXT.md changes", async () => {
    const client = await connect(true);
    const updates = collectUpdates(client);
    const subscription = await client.listen({ resourceSubscriptions: [CONTEXT_MD_URI] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [CONTEXT_MD_URI] });
    const next = updates.next();
    writeFileSync(join(directory, "CONTEXT.md"), "changed");
    expect(await next).toBe(CONTEXT_MD_URI);
    await subscription.close();
    await client.close();
  });
});
