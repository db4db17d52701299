// The official MCP client talks to the workspace server in memory: the same requests an MCP host
// sends over stdio. Run by src/examples.test.ts; docs/mcp.md and the README show it whole.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { memoryWorkspace } from "@task-context/core";
import { createTaskContextServer } from "@task-context/mcp";

//#region createTaskContextServer
const server = createTaskContextServer({
  workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen, a note-taking app." }),
});
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await server.connect(serverTransport);
const client = new Client({ name: "example", version: "1.0.0" });
await client.connect(clientTransport);
const result = await client.callTool({ name: "get_task_context", arguments: {} });
console.log(result.structuredContent);
// { content: "We are building Lumen, a note-taking app.", sha256: "…", truncated: false, originalLength: 41 }
//#endregion

const injected = await client.callTool({
  name: "inject_task_context",
  arguments: { prompt: "Draw the app's icon." },
});
const { text } = injected.structuredContent as { text: string };
console.log(text);
// [Task Context]
// We are building Lumen, a note-taking app.
//
// [Request]
// Draw the app's icon.

await client.close();
