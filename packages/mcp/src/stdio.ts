/**
 * The workspace MCP server on Node: {@link serveStdio} serves a directory over stdio, and
 * {@link watchTaskContext} tells servers when its CONTEXT.md changes. See
 * https://github.com/task-context/task-context/blob/main/docs/mcp.md.
 *
 * @module
 */
export { type ServeStdioOptions, serveStdio, type TaskContextStdioServer } from "./serve-stdio.ts";
export {
  type TaskContextWatcher,
  type WatchTaskContextOptions,
  watchTaskContext,
} from "./watch-task-context.ts";
