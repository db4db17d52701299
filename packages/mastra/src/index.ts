export {
  type DeliveredTaskContext,
  deliveredTaskContext,
  type RequestContextLike,
  TASK_CONTEXT_KEY,
} from "./delivered-task-context.ts";
export { MASTRA_TRACER } from "./load-for-primitive.ts";
export {
  delegationRequest,
  type TaskContextDelegationOptions,
  taskContextDelegation,
} from "./task-context-delegation.ts";
export type { TaskContextReceipt } from "./task-context-receipt.ts";
