export {
  createMediaTools,
  type MediaToolResult,
  type MediaTools,
} from "./create-media-tools.ts";
export {
  type DetectedMediaType,
  detectMediaType,
  type MediaKind,
} from "./detect-media-type.ts";
export { FileTooLargeError } from "./errors/file-too-large-error.ts";
export { MediaToolAbortedError } from "./errors/media-tool-aborted-error.ts";
export { MediaToolError, type MediaToolErrorCode } from "./errors/media-tool-error.ts";
export { MediaToolTimeoutError } from "./errors/media-tool-timeout-error.ts";
export { ModelNotConfiguredError } from "./errors/model-not-configured-error.ts";
export { ProviderError } from "./errors/provider-error.ts";
export { UnsupportedMediaTypeError } from "./errors/unsupported-media-type-error.ts";
export {
  DEFAULT_SPEECH_REQUEST,
  type GenerateOutput,
  type GenerateToolName,
} from "./generate-media.ts";
export type { GeneratedKind, GeneratedMedia } from "./generated-media.ts";
export {
  type GenerateAudioInput,
  type GenerateImageInput,
  type GenerateMediaInput,
  type GenerateVideoInput,
  generateAudioInputSchema,
  generateImageInputSchema,
  generateMediaInputSchema,
  generateVideoInputSchema,
  type UnderstandInput,
  understandInputSchema,
} from "./input-schemas.ts";
export {
  type CreateMediaToolsOptions,
  DEFAULT_MEDIA_LIMITS,
  DEFAULT_TIMEOUTS_MS,
  type MediaLimits,
  type MediaModels,
  type MediaToolName,
  type ProviderOptions,
  type UnderlyingToolName,
  type VideoModel,
} from "./media-tools-options.ts";
export {
  type TaskContextMiddlewareOptions,
  taskContextMiddleware,
} from "./task-context-middleware.ts";
export type {
  TranscriptSegment,
  UnderstandOutput,
  UnderstandToolName,
} from "./understand-media.ts";
