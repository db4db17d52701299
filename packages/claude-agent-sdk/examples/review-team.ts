// A main agent with a reviewer subagent, on the Claude Agent SDK: every subagent it starts — the
// reviewer, and the built-in Explore and Plan, which skip CLAUDE.md — gets CONTEXT.md (Explore
// its brief view) at the start of its prompt, and each receipt is printed. Shown in
// docs/claude-agent-sdk.md; run by src/examples.test.ts against a stand-in for Claude Code (the
// real one needs an API key and the network).
//#region example
import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
import {
  taskContextAgents,
  taskContextHooks,
  taskContextMcpServer,
} from "@task-context/claude-agent-sdk";
import { CONTEXT_VIEW_PRESETS } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";

const workspace = nodeWorkspace("."); // the directory that holds CONTEXT.md
const reviewer = {
  description: "Reviews a change against the project's rules.",
  prompt: "You review changes. Answer with the problems you find.",
  tools: ["Read", "Grep", "Glob"],
};

const options: Options = {
  agents: taskContextAgents({ reviewer }),
  // every subagent's prompt starts with CONTEXT.md; Explore gets its brief view
  hooks: taskContextHooks({
    workspace,
    views: { Explore: CONTEXT_VIEW_PRESETS.brief },
    onDelivery: ({ agent, contextView, contextSha256 }) =>
      console.log(`${agent}: ${contextView?.name ?? "CONTEXT.md"} ${contextSha256}`),
  }),
  mcpServers: { "task-context": taskContextMcpServer() },
};

for await (const message of query({ prompt: "Review the export feature.", options })) {
  if (message.type === "result") console.log(message.subtype);
}
//#endregion
