import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
import { ArgumentError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { TASK_CONTEXT_RECEIVER_INSTRUCTIONS, taskContextAgents } from "./task-context-agents.ts";
import { taskContextMcpServer } from "./task-context-mcp-server.ts";
import { standInClaudeCode } from "./test-support/stand-in-claude-code.ts";

/** What the real SDK hands Claude Code for `options`: its command line and initialize request. */
async function started(options: Options) {
  const standIn = standInClaudeCode([]);
  const spawnClaudeCodeProcess = standIn.spawn as NonNullable<Options["spawnClaudeCodeProcess"]>;
  for await (const _ of query({ prompt: "Go.", options: { ...options, spawnClaudeCodeProcess } })) {
    // the stand-in answers with one result
  }
  return standIn.record;
}

describe(`subagent definitions and the MCP server on @anthropic-ai/claude-agent-sdk ${process.env.CLAUDE_AGENT_SDK_VERSION}`, () => {
  it("sends each subagent's system prompt followed by how to read the task context", async () => {
    const reviewer = { description: "Reviews.", prompt: "You review.", tools: ["Read"] };
    const { initialize } = await started({
      agents: taskContextAgents({ reviewer, blank: { description: "B.", prompt: "" } }),
    });
    expect(initialize?.agents).toStrictEqual({
      reviewer: { ...reviewer, prompt: `You review.\n\n${TASK_CONTEXT_RECEIVER_INSTRUCTIONS}` },
      blank: { description: "B.", prompt: TASK_CONTEXT_RECEIVER_INSTRUCTIONS },
    });
  });

  it("refuses definitions without a system prompt with INVALID_ARGUMENT", () => {
    const refusal = (agents: unknown) => {
      try {
        taskContextAgents(agents as never);
      } catch (error) {
        return ArgumentError.isInstance(error) ? error.message : error;
      }
      return "no error";
    };
    expect(refusal({ reviewer: { description: "R." } })).toBe(
      "Invalid agents.reviewer.prompt: expected the subagent's system prompt (a string), got undefined.",
    );
    expect(refusal([])).toBe(
      "Invalid agents: expected an object of subagent definitions by name, got an array.",
    );
  });

  it("wires the MCP server as its docs do for Claude Code, and the SDK passes it on", async () => {
    expect(taskContextMcpServer()).toStrictEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "@task-context/mcp", "."],
    });
    const { args } = await started({
      mcpServers: { "task-context": taskContextMcpServer("/srv/harbor") },
      mcpServersDelivery: "argv", // the default, said: the 0.3 line warns when it is left unset
    });
    const config = JSON.parse(args[args.indexOf("--mcp-config") + 1] ?? "{}");
    expect(config).toStrictEqual({
      mcpServers: {
        "task-context": {
          type: "stdio",
          command: "npx",
          args: ["-y", "@task-context/mcp", "/srv/harbor"],
        },
      },
    });
  });
});
