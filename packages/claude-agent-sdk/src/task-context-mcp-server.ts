import type { McpStdioServerConfig } from "@anthropic-ai/claude-agent-sdk";
import { requireText } from "@task-context/core/internal";

/**
 * The task-context MCP server (`@task-context/mcp`) for the `mcpServers` option of `query()`,
 * wired as its docs wire it for Claude Code: a stdio server started with
 * `npx -y @task-context/mcp {directory}`, serving the CONTEXT.md of `directory` (default `.`,
 * the session's working directory) with its tools (`get_task_context`, views, receipts). The
 * subagents that may use MCP tools reach the same server, so the context they read is the one
 * the main agent wrote.
 *
 * @example
 * ```ts source="../examples/review-team.ts#example"
 * import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
 * import {
 *   taskContextAgents,
 *   taskContextHooks,
 *   taskContextMcpServer,
 * } from "@task-context/claude-agent-sdk";
 * import { CONTEXT_VIEW_PRESETS } from "@task-context/core";
 * import { nodeWorkspace } from "@task-context/core/node";
 *
 * const workspace = nodeWorkspace("."); // the directory that holds CONTEXT.md
 * const reviewer = {
 *   description: "Reviews a change against the project's rules.",
 *   prompt: "You review changes. Answer with the problems you find.",
 *   tools: ["Read", "Grep", "Glob"],
 * };
 *
 * const options: Options = {
 *   agents: taskContextAgents({ reviewer }),
 *   // every subagent's prompt starts with CONTEXT.md; Explore gets its brief view
 *   hooks: taskContextHooks({
 *     workspace,
 *     views: { Explore: CONTEXT_VIEW_PRESETS.brief },
 *     onDelivery: ({ agent, contextView, contextSha256 }) =>
 *       console.log(`${agent}: ${contextView?.name ?? "CONTEXT.md"} ${contextSha256}`),
 *   }),
 *   mcpServers: { "task-context": taskContextMcpServer() },
 * };
 *
 * for await (const message of query({ prompt: "Review the export feature.", options })) {
 *   if (message.type === "result") console.log(message.subtype);
 * }
 * ```
 */
export function taskContextMcpServer(directory = "."): McpStdioServerConfig {
  requireText("directory", directory);
  return { type: "stdio", command: "npx", args: ["-y", "@task-context/mcp", directory] };
}
