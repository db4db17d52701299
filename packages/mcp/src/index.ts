/**
 * `@task-context/mcp`: the task context for any MCP client. {@link createTaskContextServer} builds
 * an MCP server (on the official MCP TypeScript SDK) over a workspace: CONTEXT.md, Sage documents
 * and the Context Protocol v1 block as resources; `get_task_context`, `inject_task_context`,
 * `validate` and `lint_context_md` as tools; the `with_task_context` prompt. Serve a directory
 * over stdio with `serveStdio` from `@task-context/mcp/stdio`, over Streamable HTTP with
 * `createTaskContextHttpHandler` from `@task-context/mcp/http`. See
 * https://github.com/task-context/task-context/blob/main/docs/mcp.md.
 *
 * @module
 */
export type { ContextChangeListener, ContextChanges } from "./context-changes.ts";
export { createTaskContextServer } from "./create-task-context-server.ts";
export { taskContextOutputSchema } from "./get-task-context-tool.ts";
export { injectedPromptOutputSchema } from "./inject-task-context-tool.ts";
export {
  type ArgumentIssue,
  InvalidToolArgumentsError,
} from "./invalid-tool-arguments-error.ts";
export {
  MAX_DOCUMENT_BYTES,
  MAX_LINT_BYTES,
  MAX_SAGE_DOCUMENT_BYTES,
  MAX_TEXT_ARGUMENT_CHARS,
} from "./limits.ts";
export { lintOutputSchema } from "./lint-context-md-tool.ts";
export {
  CONTEXT_BLOCK_URI,
  CONTEXT_MD_URI,
  CONTEXT_MD_VIEW_URI_TEMPLATE,
  contextMdViewUri,
  SAGE_CONTEXT_URI_TEMPLATE,
  sageContextUri,
} from "./resource-uris.ts";
export { SERVER_NAME, SERVER_VERSION } from "./server-info.ts";
export type { TaskContextServerOptions } from "./task-context-server-options.ts";
export { TOOL_ERROR_META_KEY, type ToolErrorBody } from "./tool-results.ts";
export { validationOutputSchema } from "./validate-tool.ts";
