import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/** The built bin, as an MCP client configuration runs it. */
export const BIN = new URL("../../dist/bin.js", import.meta.url).pathname;

/**
 * The official client over stdio to `task-context-mcp directory`, spawned as a subprocess;
 * `modern` negotiates the 2026-07-28 revision, otherwise the 2025 handshake is used; `node` is
 * the Node that runs the bin (default: this one).
 */
export async function connectStdio(
  directory: string,
  { modern = false, node = process.execPath }: { modern?: boolean; node?: string } = {},
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: node,
    args: [BIN, directory],
    stderr: "pipe",
  });
  const client = new Client(
    { name: "task-context-tests", version: "1.0.0" },
    modern ? { versionNegotiation: { mode: "auto" } } : {},
  );
  await client.connect(transport);
  return { client, transport };
}

/** Resolves with the URIs of `notifications/resources/updated` as they arrive. */
export function collectUpdates(client: Client): { uris: string[]; next: () => Promise<string> } {
  const uris: string[] = [];
  const waiting: Array<(uri: string) => void> = [];
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    uris.push(notification.params.uri);
    waiting.shift()?.(notification.params.uri);
  });
  return {
    uris,
    next: () => new Promise((resolve) => waiting.push(resolve)),
  };
}
