/**
 * The wire contract of the task-context delivery service: the zod schemas of every request and
 * answer (and their types), the error table (codes, HTTP statuses, meanings, examples), the
 * definition of each operation (`operations`: method, path, audience, input, output, errors,
 * client method, MCP tool) and the OpenAPI 3.1 document built from them. The server derives its
 * routes, MCP tools and spans from it; the typed client (`@task-context/client`) is generated
 * from its document.
 *
 * @module
 */
export {
  type Audience,
  defineOperation,
  type HeaderParameter,
  type JsonOutput,
  type McpTool,
  type ObjectSchema,
  type OperationDefinition,
  type OperationInput,
  type OperationTag,
  type PageOutput,
  type TextOutput,
} from "./define-operation.ts";
export {
  type DeliveryErrorCode,
  type DeliveryErrorStatus,
  deliveryErrorStatus,
  errorExamples,
  errorHeaders,
  type OperationErrorCode,
  statusMeanings,
} from "./errors.ts";
export * as examples from "./examples.ts";
export {
  audienceErrors,
  type OpenApiDocument,
  type OpenApiDocumentOptions,
  openApiDocument,
  pathParameterNames,
} from "./openapi.ts";
// The registry (generated from ./operations/) and what each operation's file exports besides its
// definition: its own schemas and types (RunList, AgentList, …).
export * from "./operations.ts";
export {
  artifactIdParameter,
  idempotencyKeyHeader,
  idempotencyKeyPattern,
  lastEventIdHeader,
  runIdParameter,
  schemaNameParameter,
  traceContextHeaders,
  workItemIdParameter,
} from "./parameters.ts";
export { publishedSchemas } from "./published-schemas.ts";
export * from "./schemas.ts";
