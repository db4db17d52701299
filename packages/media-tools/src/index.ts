export {
  createMediaTools,
  type MediaToolResult,
  type MediaTools,
} from "./create-media-tools.ts";
export * from "./errors/index.ts";
export { findModelProfile } from "./find-model-profile.ts";
export {
  type ContextFit,
  type FitContextOptions,
  type FittedPrompt,
  fitContextToProfile,
} from "./fit-context-to-profile.ts";
export type { GenerateOutput } from "./generate-media.ts";
export type {
  GenerateAudioInput,
  GenerateImageInput,
  GenerateMediaInput,
  GenerateVideoInput,
  UnderstandInput,
} from "./input-schemas.ts";
export type {
  CreateMediaToolsOptions,
  MediaLimits,
  MediaModels,
  MediaToolName,
} from "./media-tools-options.ts";
export type {
  InstructionPlacement,
  ModelProfile,
  PromptLimit,
  PromptOverflow,
} from "./model-profile.ts";
export { MODEL_PROFILES } from "./model-profiles.ts";
export {
  TASK_CONTEXT_METADATA_KEY,
  type TaskContextMiddlewareOptions,
  taskContextMiddleware,
} from "./task-context-middleware.ts";
export type { UnderstandOutput } from "./understand-media.ts";
