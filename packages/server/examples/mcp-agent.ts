// A remote agent that speaks only MCP: the official MCP client over Streamable HTTP at /mcp, its
// agent token as the bearer. It reads the run's context, claims the next work item (long poll),
// completes it with an idempotency key, and prints what it did. One item, then it exits.
//#region connect
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { service } from "./client.ts"; // TASK_CONTEXT_URL, default http://127.0.0.1:8787

const token = process.env.TASK_CONTEXT_AGENT_TOKEN ?? "";
const mcp = new Client({ name: "my-agent", version: "1.0.0" });
await mcp.connect(
  new StreamableHTTPClientTransport(new URL("/mcp", service), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }),
);

// The run's context: goal, constraints and the current stage(s) with their stage context.
const [resource] = (await mcp.listResources()).resources;
const context = await mcp.readResource({ uri: resource?.uri ?? "" });
//#endregion

//#region work
// Held up to 30 s until something is on offer; no fields when nothing came.
const claim = await mcp.callTool({ name: "claim_work_item", arguments: { wait: 30 } });
const { work_item, lease } = claim.structuredContent as {
  work_item?: { id: string; stage_id: string };
  lease?: { attempt: number };
};
if (work_item !== undefined && lease !== undefined) {
  const done = await mcp.callTool({
    name: "complete_work_item",
    arguments: {
      work_item_id: work_item.id,
      attempt: lease.attempt,
      artifact: { media_type: "text/markdown", content: "# Draft\n\nWritten over MCP." },
      // Retrying with the same key and arguments answers the first answer again.
      idempotency_key: `${work_item.id}-${lease.attempt}`,
    },
  });
  // A refusal (LEASE_LOST, ALREADY_COMPLETED, …) is a tool error: isError, and the contract's
  // error body { error, code, issues? } in _meta["task-context/error"].
  if (done.isError === true) {
    const refusal = done._meta?.["task-context/error"] as { code: string; error: string };
    console.log(work_item.id, refusal.code);
  } else {
    console.log(work_item.id, (done.structuredContent as { status: string }).status);
  }
}
//#endregion
console.log(JSON.parse((context.contents[0] as { text: string }).text).goal);
await mcp.close();
