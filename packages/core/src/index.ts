export { approximateTokenizer } from "./approximate-tokenizer.ts";
export {
  type CheckReceiptOptions,
  checkReceipt,
  type ReceiptCheck,
  type ReceiptStatus,
} from "./check-receipt.ts";
export { CONTEXT_FILENAME, CONTEXT_MISSING_MESSAGE, DEFAULT_MAX_CHARS } from "./constants.ts";
export { type ContextChangedOptions, contextChangedWarning } from "./context-changed-warning.ts";
export {
  type ContextTool,
  type ContextToolDefinition,
  type ContextToolResult,
  defineContextTool,
  type ToolContext,
} from "./define-context-tool.ts";
export { ArgumentError } from "./errors/argument-error.ts";
export { ContextViewEmptyError } from "./errors/context-view-empty-error.ts";
export type { CoreErrorCode } from "./errors/core-error-code.ts";
export { FileNotFoundError } from "./errors/file-not-found-error.ts";
export { type FileKind, NotRegularFileError } from "./errors/not-regular-file-error.ts";
export { SecretInContextError } from "./errors/secret-in-context-error.ts";
export { TaskContextError, type TaskContextErrorOptions } from "./errors/task-context-error.ts";
export {
  TaskContextMissingError,
  type TaskContextMissingReason,
} from "./errors/task-context-missing-error.ts";
export { TokenizerUnavailableError } from "./errors/tokenizer-unavailable-error.ts";
export { type EscapeRoute, WorkspaceEscapeError } from "./errors/workspace-escape-error.ts";
export { WorkspaceIoError } from "./errors/workspace-io-error.ts";
export { WorkspacePathError } from "./errors/workspace-path-error.ts";
export { injectTaskContext, type SplitPrompt, splitTaskContext } from "./inject-task-context.ts";
export { loadO200kTokenizer } from "./load-o200k-tokenizer.ts";
export { loadTaskContext } from "./load-task-context.ts";
export { memoryWorkspace } from "./memory-workspace.ts";
export { findSecrets, type SecretFinding } from "./secrets/find-secrets.ts";
export {
  type RedactedText,
  redactSecrets,
  type SecretRedaction,
} from "./secrets/redact-secrets.ts";
export { SECRET_POLICIES, type SecretPolicy } from "./secrets/secret-policy.ts";
export type { LoadTaskContextOptions, TaskContext, TaskContextView } from "./task-context.ts";
export type { Tokenizer } from "./tokenizer.ts";
export {
  DELIVERY_ATTRIBUTES,
  DELIVERY_OUTCOMES,
  type DeliveryOutcome,
  GEN_AI_ATTRIBUTES,
  RECIPIENT_KINDS,
  type RecipientKind,
} from "./tracing/delivery-attributes.ts";
export {
  type FencedUntrustedText,
  fenceUntrustedText,
  UNTRUSTED_LINE_PREFIX,
  type UntrustedFinding,
  type UntrustedText,
  untrustedContentWarning,
} from "./untrusted/fence-untrusted.ts";
export { findPosingText, type PosingFinding } from "./untrusted/find-posing-text.ts";
export { type NeutralisedText, neutralisePosingText } from "./untrusted/neutralise-posing-text.ts";
export { POSING_KINDS, type PosingKind } from "./untrusted/posing-forms.ts";
export { type ContextHeading, contextHeadings } from "./views/context-headings.ts";
export type { ContextView } from "./views/context-view.ts";
export {
  CONTEXT_VIEW_PRESETS,
  type ContextViewPresetName,
} from "./views/context-view-presets.ts";
export {
  type ContextSectionBudget,
  type FittedContextSections,
  fitContextSections,
} from "./views/fit-context-sections.ts";
export { type ContextViewSelection, selectContextView } from "./views/select-context-view.ts";
export type { FileContent, ReadFileOptions, Workspace } from "./workspace.ts";
