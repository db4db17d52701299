export type { TaskContextDeliveryOptions } from "./delivery-options.ts";
export {
  HandoffNotInvokedError,
  type OpenAiAgentsErrorCode,
} from "./errors/handoff-not-invoked-error.ts";
export { handoffRequest } from "./handoff-input.ts";
export { OPENAI_AGENTS_TRACER } from "./load-for-agent.ts";
export { RECEIPT_SPAN_NAME } from "./record-receipt.ts";
export {
  type TaskContextAgentToolOptions,
  taskContextAgentTool,
} from "./task-context-agent-tool.ts";
export { type TaskContextHandoffOptions, taskContextHandoff } from "./task-context-handoff.ts";
export type { TaskContextDeliveryRoute, TaskContextReceipt } from "./task-context-receipt.ts";
