/**
 * The wire formats of task-context: zod schemas and the JSON Schemas published from them,
 * `validate()`, and the package's errors. Context Protocol v1 blocks, Sage documents, CONTEXT.md
 * and work items have subpaths of their own. See
 * https://github.com/task-context/task-context/blob/main/docs/schemas.md.
 *
 * @module
 */
export { ContextLimitsError } from "./errors/context-limits-error.ts";
export { ContextPathOutsideProjectError } from "./errors/context-path-outside-project-error.ts";
export {
  type ContextTooLargeDetails,
  ContextTooLargeError,
} from "./errors/context-too-large-error.ts";
export { InvalidContextBlockError } from "./errors/invalid-context-block-error.ts";
export {
  InvalidSubagentContextError,
  type SubagentContextIssue,
} from "./errors/invalid-subagent-context-error.ts";
export { InvalidTaskIdError } from "./errors/invalid-task-id-error.ts";
export { InvalidYamlError, type InvalidYamlKind } from "./errors/invalid-yaml-error.ts";
export type { ProtocolsErrorCode } from "./errors/protocols-error-code.ts";
export { UnknownSchemaError } from "./errors/unknown-schema-error.ts";
export { type ContextBlock, contextBlockSchema } from "./schemas/context-block.ts";
export {
  type ContextLimits,
  type ContextLimitsConfig,
  contextLimitsConfigSchema,
  contextLimitsSchema,
} from "./schemas/context-limits.ts";
export { type SchemaName, schemaNames } from "./schemas/registry.ts";
export * from "./schemas/subagent-context.ts";
export { type SubagentOutput, subagentOutputSchema } from "./schemas/subagent-output.ts";
export type { ValidationIssue, ValidationResult } from "./validate/issues.ts";
export { resolveSchemaName, validate } from "./validate/validate.ts";
// The work items' schemas and types, also at the root.
export * from "./work-item.ts";
