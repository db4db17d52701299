/**
 * Sage's `generate_context` protocol (spec 002): bounded `<subagent-context>` XML documents per
 * subagent type, limits from `.sage/config/context-limits.yaml`, written to
 * `.sage/context/{taskId}.xml`.
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
export {
  type ContextItem,
  type SubagentContext,
  type SubagentTaskType,
  subagentContextSchema,
  subagentTaskTypeSchema,
  taskIdSchema,
} from "../schemas/subagent-context.ts";
export { type SubagentOutput, subagentOutputSchema } from "../schemas/subagent-output.ts";
export {
  type ApplyContextLimitsOptions,
  applyContextLimits,
  type FittedContext,
  MINIMUM_ITEM_TOKENS,
} from "./apply-context-limits.ts";
export {
  CONTEXT_DIRECTORY,
  type GenerateContextOptions,
  type GenerateContextRequest,
  type GeneratedContext,
  generateContext,
  type SageLogger,
} from "./generate-context.ts";
export {
  CONTEXT_LIMITS_PATH,
  DEFAULT_CONTEXT_LIMITS,
  loadContextLimits,
  MAX_CONTEXT_LIMITS_BYTES,
  parseContextLimitsConfig,
  resolveContextLimits,
} from "./load-context-limits.ts";
export { parseSubagentContext } from "./parse-subagent-context.ts";
export {
  renderSubagentContext,
  sanitizeSubagentContext,
  XML_DECLARATION,
} from "./render-subagent-context.ts";
export { extractiveSummarizer, type SummarizeInfo, type Summarizer } from "./summarize.ts";
export {
  buildSubagentContext,
  DEFAULT_INSTRUCTIONS,
  DEFAULT_OUTPUT_FORMAT,
  type TaskData,
  taskDataSchema,
} from "./task-data.ts";
export { escapeXmlAttribute, escapeXmlText, sanitizeXmlText } from "./xml-text.ts";
