/**
 * The workspace MCP server over Streamable HTTP: {@link createTaskContextHttpHandler} is a fetch
 * handler that serves both protocol eras (sessions and subscriptions for 2025-era clients),
 * refuses foreign `Host` and `Origin` headers, and runs wherever `Request`/`Response` do. See
 * https://github.com/task-context/task-context/blob/main/docs/mcp.md.
 *
 * @module
 */
export {
  createTaskContextHttpHandler,
  type TaskContextHttpHandler,
  type TaskContextHttpHandlerOptions,
} from "./task-context-http-handler.ts";
