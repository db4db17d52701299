// The media tools' errors: none of them loads the AI SDK, so the Node entry point (index.node.ts)
// exports them before its version check.
export { FileTooLargeError } from "./file-too-large-error.ts";
export { MediaToolAbortedError } from "./media-tool-aborted-error.ts";
export { MediaToolError, type MediaToolErrorCode } from "./media-tool-error.ts";
export { MediaToolTimeoutError } from "./media-tool-timeout-error.ts";
export { ModelNotConfiguredError } from "./model-not-configured-error.ts";
export { ProviderError } from "./provider-error.ts";
export { UnsupportedAiSdkError } from "./unsupported-ai-sdk-error.ts";
export { UnsupportedMediaTypeError } from "./unsupported-media-type-error.ts";
export { UnsupportedRuntimeError } from "./unsupported-runtime-error.ts";
