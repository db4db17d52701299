// The two generations of the official MCP client, behind one small face: v2
// (`@modelcontextprotocol/client` 2.4) and v1 (`@modelcontextprotocol/sdk` 1.32, the most
// installed one, which checks structuredContent against a tool's outputSchema even on errors).
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as V2Stdio } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1Stdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { BIN } from "./stdio-client.ts";

export type Generation = "v1" | "v2";
export const GENERATIONS: readonly Generation[] = ["v1", "v2"];

/** What the tests need of a client, whichever generation. */
export interface GenerationClient {
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  /** The server's capabilities from the handshake. */
  capabilities(): Record<string, unknown> | undefined;
  /** Resolves with the URI of the next `notifications/resources/updated`. */
  nextUpdate(): Promise<string>;
  close(): Promise<void>;
}

const info = { name: "task-context-tests", version: "1.0.0" };

function face(
  client: V1Client | V2Client,
  waiting: Array<(uri: string) => void>,
): GenerationClient {
  return {
    callTool: async (name, args) =>
      (await client.callTool({ name, arguments: args })) as Record<string, unknown>,
    subscribe: async (uri) => void (await client.subscribeResource({ uri })),
    unsubscribe: async (uri) => void (await client.unsubscribeResource({ uri })),
    capabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    nextUpdate: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => client.close(),
  };
}

function v1Client(): { client: V1Client; waiting: Array<(uri: string) => void> } {
  const client = new V1Client(info);
  const waiting: Array<(uri: string) => void> = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    waiting.shift()?.(notification.params.uri);
  });
  return { client, waiting };
}

function v2Client(): { client: V2Client; waiting: Array<(uri: string) => void> } {
  const client = new V2Client(info);
  const waiting: Array<(uri: string) => void> = [];
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    waiting.shift()?.(notification.params.uri);
  });
  return { client, waiting };
}

/**
 * Connects a client of `generation` through the transport of its own generation, and lists the
 * tools as an agent does first: from then on the client checks every result's structured
 * content against the tool's output schema (v1 throws `-32602` when it does not match).
 */
async function connect(
  generation: Generation,
  transports: { v1: () => V1Stdio | V1Http; v2: () => V2Stdio | V2Http },
): Promise<GenerationClient> {
  if (generation === "v1") {
    const { client, waiting } = v1Client();
    await client.connect(transports.v1());
    await client.listTools();
    return face(client, waiting);
  }
  const { client, waiting } = v2Client();
  await client.connect(transports.v2());
  await client.listTools();
  return face(client, waiting);
}

/** A client of `generation` over stdio to the built bin serving `directory`. */
export function connectOverStdio(generation: Generation, directory: string) {
  const command = { command: process.execPath, args: [BIN, directory], stderr: "pipe" as const };
  return connect(generation, { v1: () => new V1Stdio(command), v2: () => new V2Stdio(command) });
}

/** A client of `generation` over Streamable HTTP (the 2025 handshake) to `url`. */
export function connectOverHttp(generation: Generation, url: URL) {
  return connect(generation, { v1: () => new V1Http(url), v2: () => new V2Http(url) });
}
