// The baseline of the benchmarks: a bare MCP server on the same SDK whose only tool returns a
// constant string of the given size, with no file read, hashing or limits. Over stdio when run
// as a script (`node bench/bare-server.ts <size>`); `createBareServer` for Streamable HTTP.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

/** A server whose get_task_context returns `size` characters, always the same. */
export function createBareServer(size: number): McpServer {
  const text = "x".repeat(size);
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool("get_task_context", { inputSchema: z.object({}) }, async () => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

if (import.meta.main) {
  const size = Number(process.argv[2] ?? "4000");
  serveStdio(() => createBareServer(size));
}
