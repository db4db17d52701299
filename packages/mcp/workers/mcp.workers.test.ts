// Runs inside workerd (vitest.workers.config.ts): the main entry has no Node built-ins, so a
// Worker can serve a workspace's task context over Streamable HTTP with the SDK's handler.
import { createMcpHandler } from "@modelcontextprotocol/server";
import { memoryWorkspace } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { createTaskContextServer } from "../src/index.ts";
import { connectToHandler } from "../src/test-support/connect.ts";
import {
  CONTEXT,
  GET_TASK_CONTEXT_RESULT,
  MISSING_MESSAGE,
  toolRefusal,
} from "../src/test-support/fixtures.ts";

async function connect(files: Record<string, string>) {
  const workspace = memoryWorkspace(files);
  const handler = createMcpHandler(() => createTaskContextServer({ workspace }));
  return { client: await connectToHandler(handler), handler };
}

describe("the workspace server on Cloudflare Workers (workerd)", () => {
  it("runs inside workerd", () => {
    expect(navigator.userAgent).toBe("Cloudflare-Workers");
  });

  it("answers get_task_context and inject_task_context", async () => {
    const { client, handler } = await connect({ "CONTEXT.md": CONTEXT });
    const { content, structuredContent } = await client.callTool({
      name: "get_task_context",
      arguments: {},
    });
    expect({ content, structuredContent }).toEqual(GET_TASK_CONTEXT_RESULT);
    const injected = await client.callTool({
      name: "inject_task_context",
      arguments: { prompt: "Draw." },
    });
    expect(injected.content).toEqual([
      { type: "text", text: `[Task Context]\n${CONTEXT}\n\n[Request]\nDraw.` },
    ]);
    await client.close();
    await handler.close();
  });

  it("validates a document and returns the missing-CONTEXT.md tool error", async () => {
    const { client, handler } = await connect({});
    const missing = await client.callTool({ name: "get_task_context", arguments: {} });
    // The 2026-07-28 revision adds the server's identity to _meta; the refusal is the same.
    expect(missing).toMatchObject(toolRefusal("TASK_CONTEXT_MISSING", MISSING_MESSAGE));
    expect(missing.structuredContent).toBeUndefined();
    const checked = await client.callTool({
      name: "validate",
      arguments: { schema: "context-block.v1", document: { version: 1 } },
    });
    expect(checked.structuredContent).toMatchObject({ valid: false });
    await client.close();
    await handler.close();
  });
});
