export {
  type BuildSystemPromptOptions,
  buildSystemPrompt,
  buildSystemPromptSections,
  measureSystemPrompt,
  type SystemPromptMeasurement,
  type SystemPromptSection,
} from "./build-system-prompt.ts";
export { EXAMPLE_CONTEXT_MD } from "./context-md-section.ts";
export { EXAMPLE_CONTEXT_BLOCK } from "./context-protocol-section.ts";
export {
  MULTIMODAL_TOOL_NAMES,
  multimodalToolNames,
  type ToolDescriptor,
  type ToolList,
} from "./multimodal-tools.ts";
export {
  type ContextReceiverOptions,
  contextReceiverInstructions,
} from "./receiver-instructions.ts";
