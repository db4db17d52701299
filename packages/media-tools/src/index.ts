export {
  createMediaTools,
  type MediaToolResult,
  type MediaTools,
} from "./create-media-tools.ts";
export { FileTooLargeError } from "./errors/file-too-large-error.ts";
export { MediaToolAbortedError } from "./errors/media-tool-aborted-error.ts";
export { MediaToolError, type MediaToolErrorCode } from "./errors/media-tool-error.ts";
export { MediaToolTimeoutError } from "./errors/media-tool-timeout-error.ts";
export { ModelNotConfiguredError } from "./errors/model-not-configured-error.ts";
export { ProviderError } from "./errors/provider-error.ts";
export { UnsupportedMediaTypeError } from "./errors/unsupported-media-type-error.ts";
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
} from "./media-tools-options.ts";
export {
  TASK_CONTEXT_METADATA_KEY,
  type TaskContextMiddlewareOptions,
  taskContextMiddleware,
} from "./task-context-middleware.ts";
export type { UnderstandOutput } from "./understand-media.ts";
