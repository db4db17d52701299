/**
 * Sage's `generate_context`: bounded `<subagent-context>` XML documents per subagent type, limits
 * from `.sage/config/context-limits.yaml`, written to `.sage/context/{taskId}.xml`. See
 * https://github.com/task-context/task-context/blob/main/docs/sage-context.md.
 *
 * @module
 */
export { ContextLimitsError } from "../errors/context-limits-error.ts";
export {
  type ContextTooLargeDetails,
  ContextTooLargeError,
} from "../errors/context-too-large-error.ts";
export {
  InvalidSubagentContextError,
  type SubagentContextIssue,
} from "../errors/invalid-subagent-context-error.ts";
export { InvalidTaskIdError } from "../errors/invalid-task-id-error.ts";
export {
  type ContextLimits,
  type ContextLimitsConfig,
  contextLimitsConfigSchema,
  contextLimitsSchema,
} from "../schemas/context-limits.ts";
export * from "../schemas/subagent-context.ts";
export { type SubagentOutput, subagentOutputSchema } from "../schemas/subagent-output.ts";
export {
  type GenerateContextOptions,
  type GenerateContextRequest,
  type GeneratedContext,
  generateContext,
  type SageLogger,
} from "./generate-context.ts";
export {
  CONTEXT_LIMITS_PATH,
  loadContextLimits,
  MAX_CONTEXT_LIMITS_BYTES,
} from "./load-context-limits.ts";
export { parseSubagentContext } from "./parse-subagent-context.ts";
export { renderSubagentContext } from "./render-subagent-context.ts";
export type { SummarizeInfo, Summarizer } from "./summarize.ts";
export { type TaskData, taskDataSchema } from "./task-data.ts";
