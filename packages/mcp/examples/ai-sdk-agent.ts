// An AI SDK agent with the workspace server's tools, through the AI SDK's MCP client over stdio.
// Run by src/ai-sdk.test.ts with the built bin and a stand-in model.
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { generateText, type LanguageModel, stepCountIs } from "ai";

/** Answers `prompt` with the tools of the server that `command` starts (e.g. npx). */
export async function askWithTaskContext(
  model: LanguageModel,
  prompt: string,
  command = "npx",
  args = ["-y", "@task-context/mcp", "."],
): Promise<string> {
  //#region aiSdkAgent
  const mcp = await createMCPClient({
    transport: new Experimental_StdioMCPTransport({ command, args }),
  });
  try {
    const { text } = await generateText({
      model,
      tools: await mcp.tools(), // get_task_context, inject_task_context, validate, lint_context_md
      stopWhen: stepCountIs(5),
      prompt,
    });
    return text;
  } finally {
    await mcp.close();
  }
  //#endregion
}
