// The workspace server over Streamable HTTP on Node, on loopback: both protocol eras, sessions
// and subscriptions for 2025-era clients, CONTEXT.md changes to subscribers, DNS-rebinding
// protection. Run by src/http.test.ts and the conformance suite (src/conformance.test.ts).
import { serve } from "@hono/node-server";
import { nodeWorkspace } from "@task-context/core/node";
import { createTaskContextHttpHandler } from "@task-context/mcp/http";
import { watchTaskContext } from "@task-context/mcp/stdio";

export function serveTaskContextOverHttp(directory: string, port = 3000) {
  //#region createTaskContextHttpHandler
  const handler = createTaskContextHttpHandler({
    workspace: nodeWorkspace(directory),
    changes: watchTaskContext(directory),
  });
  const server = serve({ fetch: handler.fetch, hostname: "127.0.0.1", port });
  // An MCP client connects to http://127.0.0.1:3000/mcp (the handler answers any path).
  //#endregion
  return { handler, server };
}
