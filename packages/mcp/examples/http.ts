// The same server over Streamable HTTP, through the SDK's web-standard handler: a fresh instance
// per request, CONTEXT.md changes published on the handler's notifier. Run by src/http.test.ts.
import { createMcpHandler } from "@modelcontextprotocol/server";
import { nodeWorkspace } from "@task-context/core/node";
import { CONTEXT_MD_URI, createTaskContextServer } from "@task-context/mcp";
import { watchTaskContext } from "@task-context/mcp/stdio";

export function createTaskContextHandler(directory: string) {
  //#region createMcpHandler
  const workspace = nodeWorkspace(directory);
  const handler = createMcpHandler(() =>
    createTaskContextServer({ workspace, subscribable: true }),
  );
  const stopWatching = watchTaskContext(directory).subscribe(() =>
    handler.notify.resourceUpdated(CONTEXT_MD_URI),
  );
  // handler.fetch(request) answers POST/GET/DELETE /mcp: mount it on any fetch-style server.
  //#endregion
  return { handler, stopWatching };
}
