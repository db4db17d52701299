export type { TaskContextReceipt } from "./receipt.ts";
export { SUBAGENT_TOOLS } from "./subagent-tools.ts";
export { TASK_CONTEXT_RECEIVER_INSTRUCTIONS, taskContextAgents } from "./task-context-agents.ts";
export {
  type TaskContextHooks,
  type TaskContextHooksOptions,
  taskContextHooks,
} from "./task-context-hooks.ts";
export { taskContextMcpServer } from "./task-context-mcp-server.ts";
