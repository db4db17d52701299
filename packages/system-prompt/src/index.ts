/**
 * System prompts that teach a main agent to write CONTEXT.md before it calls multimodal tools or
 * spawns subagents and to pass project context to subagents as a Context Protocol v1 block, and
 * that teach subagents how to receive it. See
 * https://github.com/task-context/task-context/blob/main/docs/system-prompt.md
 *
 * @module
 */
export {
  type BuildSystemPromptOptions,
  buildSystemPrompt,
  measureSystemPrompt,
  type SystemPromptMeasurement,
  type SystemPromptSection,
} from "./build-system-prompt.ts";
export { EXAMPLE_CONTEXT_MD } from "./context-md-section.ts";
export type { ToolDescriptor, ToolList } from "./multimodal-tools.ts";
export {
  type ContextReceiverOptions,
  contextReceiverInstructions,
} from "./receiver-instructions.ts";
