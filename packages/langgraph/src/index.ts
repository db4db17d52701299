export { TASK_CONTEXT_METADATA_KEY, type TaskContextReceipt } from "./receipt.ts";
export { TASK_CONTEXT_KEY, taskContextOf } from "./task-context-of.ts";
export {
  type TaskContextTarget,
  type WithTaskContextOptions,
  withTaskContext,
} from "./with-task-context.ts";
