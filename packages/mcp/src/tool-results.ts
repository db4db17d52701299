import type { CallToolResult } from "@modelcontextprotocol/server";

/**
 * The `_meta` key of a tool error's body, `_meta["task-context/error"]`: the same on the
 * workspace server and on the delivery service's `/mcp`, so one client reads both.
 */
export const TOOL_ERROR_META_KEY = "task-context/error";

/**
 * Why a tool refused, in `_meta["task-context/error"]` of its error result: the same body as the
 * delivery service's HTTP errors. `issues` is there only when there are issues.
 */
export interface ToolErrorBody {
  /** What happened and what to do next (the text's part after `<code>: `). */
  error: string;
  /** A stable code to branch on, such as `TASK_CONTEXT_MISSING` or `INVALID_ARGUMENT`. */
  code: string;
  /** Each problem at its JSON Pointer, such as `{ path: "/prompt", message: "…" }`. */
  issues?: Array<{ path: string; message: string }>;
}

/** A successful tool result: the text the model reads and the same facts as structured content. */
export function toolResult(
  text: readonly string[],
  structuredContent: Record<string, unknown>,
): CallToolResult {
  return {
    content: text.map((part) => ({ type: "text" as const, text: part })),
    structuredContent,
  };
}

/**
 * A tool error (`isError: true`) in the one shape of task-context's MCP servers: the text
 * `<CODE>: <message>` for the model, and `_meta["task-context/error"]` = `body` for a program.
 * No `structuredContent`: a tool's output schema describes its successes, and clients check
 * structured content against it even on errors.
 */
export function toolErrorResult(body: ToolErrorBody): CallToolResult {
  return {
    content: [{ type: "text", text: `${body.code}: ${body.error}` }],
    isError: true,
    _meta: { [TOOL_ERROR_META_KEY]: body },
  };
}
