// An AI SDK agent uses the workspace server through the AI SDK's own MCP client over stdio (the
// built bin, spawned), with a stand-in model that speaks the OpenAI API on loopback: the
// assertions are on the bytes of the requests the model received.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { askWithTaskContext } from "../examples/ai-sdk-agent.ts";
import { CONTEXT } from "./test-support/fixtures.ts";
import { type OpenAiStandIn, startOpenAiStandIn } from "./test-support/openai-stand-in.ts";
import { BIN } from "./test-support/stdio-client.ts";

let directory: string;
let standIn: OpenAiStandIn;
let mcp: MCPClient;

beforeAll(async () => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-ai-sdk-")));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  standIn = await startOpenAiStandIn();
  mcp = await createMCPClient({
    transport: new Experimental_StdioMCPTransport({
      command: process.execPath,
      args: [BIN, directory],
    }),
  });
});
afterAll(async () => {
  await mcp.close();
  await standIn.close();
  rmSync(directory, { recursive: true, force: true });
});
beforeEach(() => {
  standIn.requests.length = 0;
});

const model = () =>
  createOpenAICompatible({ name: "stand-in", baseURL: standIn.baseURL, apiKey: "test" })(
    "stand-in",
  );

describe("an AI SDK agent with the workspace server's tools", () => {
  it("calls get_task_context and the model receives the context byte for byte", async () => {
    standIn.script = [
      { toolCalls: [{ name: "get_task_context", arguments: {} }] },
      { text: "The app is Lumen." },
    ];
    const tools = await mcp.tools();
    expect(Object.keys(tools).sort()).toEqual([
      "get_task_context",
      "inject_task_context",
      "lint_context_md",
      "validate",
    ]);
    const result = await generateText({
      model: model(),
      tools,
      stopWhen: stepCountIs(3),
      prompt: "What are we building?",
    });
    expect(result.text).toBe("The app is Lumen.");
    expect(standIn.requests).toHaveLength(2);
    const toolMessage = standIn.requests[1]?.messages.find((message) => message.role === "tool");
    // The AI SDK sends an MCP tool's content blocks to the model as their JSON.
    expect(toolMessage?.content).toBe(JSON.stringify([{ type: "text", text: CONTEXT }]));
    expect(standIn.requests[0]?.messages).toEqual([
      { role: "user", content: "What are we building?" },
    ]);
  });

  it("runs examples/ai-sdk-agent.ts: the agent answers after reading the context", async () => {
    standIn.script = [
      { toolCalls: [{ name: "get_task_context", arguments: {} }] },
      { text: "Lumen, a note-taking app." },
    ];
    const text = await askWithTaskContext(model(), "What are we building?", process.execPath, [
      BIN,
      directory,
    ]);
    expect(text).toBe("Lumen, a note-taking app.");
    const toolMessage = standIn.requests[1]?.messages.find((message) => message.role === "tool");
    expect(toolMessage?.content).toBe(JSON.stringify([{ type: "text", text: CONTEXT }]));
  });

  it("sends the with_task_context prompt to the model as the exact injected user message", async () => {
    standIn.script = [{ text: "A teal icon." }];
    const prompt = await mcp.experimental_getPrompt({
      name: "with_task_context",
      arguments: { request: "Describe the icon." },
    });
    const first = prompt.messages[0];
    const text = first?.content.type === "text" ? first.content.text : "";
    await generateText({ model: model(), prompt: text });
    expect(standIn.requests[0]?.messages).toEqual([
      { role: "user", content: `[Task Context]\n${CONTEXT}\n\n[Request]\nDescribe the icon.` },
    ]);
  });
});
