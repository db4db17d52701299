/**
 * Helpers the task-context packages share, for their own use: argument checks, error-code
 * extraction, hashing, line and grapheme arithmetic. Not part of the public API: names and
 * signatures may change in any release. It never loads `@opentelemetry/api`: the delivery spans
 * are behind `@task-context/core/tracing`.
 *
 * @internal
 * @module
 */

export { sha256Hex } from "#sha256";
export {
  describeArgument,
  MAX_TIMER_MS,
  requireFileData,
  requireObject,
  requireOptionalBoolean,
  requireString,
  requireText,
  requireWholeNumber,
} from "./arguments.ts";
export { CONTEXT_PARAMETER_NAMES } from "./define-context-tool.ts";
export { graphemeBoundaryAtOrBefore } from "./grapheme.ts";
export { joinWarnings } from "./join-warnings.ts";
export { lineNumberAt } from "./line-number.ts";
export {
  type CheckedLoadOptions,
  LOAD_OPTION_KEYS,
  requireLoadOptions,
} from "./load-options.ts";
export { requireWorkspace } from "./load-task-context-from.ts";
export { requireTokenizer } from "./require-tokenizer.ts";
export { redactionMarker } from "./secrets/redact-secrets.ts";
export {
  countSecrets,
  describeRedactions,
  redactionWarning,
  requireSecretPolicy,
} from "./secrets/secret-policy.ts";
export { systemErrorCode } from "./system-error-code.ts";
export { thrownMessage } from "./thrown-message.ts";
export { contextViewAttributes } from "./tracing/context-view-attributes.ts";
export {
  forgedHeadersWarning,
  neutraliseForgedHeaders,
  type RequestWithoutForgedHeaders,
} from "./untrusted/neutralise-forged-headers.ts";
export { decodeUtf8, encodeUtf8 } from "./utf8.ts";
export { type ContextReceipt, contextReceipt } from "./views/context-receipt.ts";
export { requireContextView } from "./views/context-view.ts";
export { parseWorkspacePath } from "./workspace-path.ts";
