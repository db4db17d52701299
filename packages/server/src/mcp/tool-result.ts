import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ErrorBody } from "../contract/schemas.ts";
import { toDeliveryError } from "../http/error-response.ts";

/**
 * The `_meta` key of a tool error's body, `_meta["task-context/error"]`: the same key as the
 * workspace MCP server's (@task-context/mcp), so one client reads both.
 */
export const TOOL_ERROR_META_KEY = "task-context/error";

/**
 * A tool's answer: the contract's JSON as `structuredContent`, and as text the same JSON, or the
 * `texts` given (what a model should read of it, such as an artifact's content fenced as data).
 */
export function toolResult(value: object, texts = [JSON.stringify(value)]): CallToolResult {
  return {
    content: texts.map((text) => ({ type: "text" as const, text })),
    structuredContent: value as Record<string, unknown>,
  };
}

/**
 * Any failure of a tool as a tool error (`isError: true`) in the one shape of task-context's MCP
 * servers: the text `<CODE>: <message>` for the model, and `_meta["task-context/error"]` = the
 * contract's error body `{ error, code, issues? }`, the same as the HTTP answer's, for a program.
 * No `structuredContent`: a tool's output schema describes its successes, and clients check
 * structured content against it even on errors. An unexpected failure is `INTERNAL_ERROR`, never
 * with its message (see `toDeliveryError`).
 */
export function toolError(
  error: unknown,
  onUnexpectedError?: (error: unknown) => void,
): CallToolResult {
  const failure = toDeliveryError(error);
  if (failure.code === "INTERNAL_ERROR") onUnexpectedError?.(error);
  const body: ErrorBody = {
    error: failure.message,
    code: failure.code,
    ...(failure.issues === undefined ? {} : { issues: failure.issues }),
  };
  return {
    isError: true,
    content: [{ type: "text", text: `${failure.code}: ${failure.message}` }],
    _meta: { [TOOL_ERROR_META_KEY]: body },
  };
}
