import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { McpHttpHandler, McpServer } from "@modelcontextprotocol/server";

/** The official client, connected in memory (2025-era handshake) to `server`. */
export async function connectInMemory(server: McpServer): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "task-context-tests", version: "1.0.0" });
  await client.connect(clientTransport);
  return client;
}

/**
 * The official client, negotiating the 2026-07-28 revision, connected to the SDK's web-standard
 * `handler` in-process: its `fetch` serves every request, no socket.
 */
export async function connectToHandler(handler: McpHttpHandler): Promise<Client> {
  const client = new Client(
    { name: "task-context-tests", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://in-process/mcp"), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    }),
  );
  return client;
}

/** What a rejected request carried: the JSON-RPC error's code, message and data. */
export async function protocolError(
  request: Promise<unknown>,
): Promise<{ code: unknown; message: string; data: unknown }> {
  try {
    await request;
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message: string; data?: unknown };
    return { code, message, data };
  }
  throw new Error("expected the request to fail with a protocol error");
}
