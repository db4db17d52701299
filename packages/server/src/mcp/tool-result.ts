import type { CallToolResult } from "@modelcontextprotocol/server";
import {
  type ToolErrorBody,
  toolErrorResult,
  toolResult as workspaceToolResult,
} from "@task-context/mcp/internal";
import { toDeliveryError } from "../http/error-response.ts";

/**
 * A tool's answer: the contract's JSON as `structuredContent`, and as text the same JSON, or the
 * `texts` given (what a model should read of it, such as an artifact's content fenced as data).
 */
export function toolResult(value: object, texts = [JSON.stringify(value)]): CallToolResult {
  return workspaceToolResult(texts, value as Record<string, unknown>);
}

/**
 * Any failure of a tool as a tool error (`isError: true`) in the one shape of task-context's MCP
 * servers (`toolErrorResult`, shared with the workspace server): the text `<CODE>: <message>`
 * for the model, and `_meta["task-context/error"]` = the contract's error body
 * `{ error, code, issues? }`, the same as the HTTP answer's, for a program. An unexpected failure
 * is `INTERNAL_ERROR`, never with its message (see `toDeliveryError`).
 */
export function toolError(
  error: unknown,
  onUnexpectedError?: (error: unknown) => void,
): CallToolResult {
  const failure = toDeliveryError(error);
  if (failure.code === "INTERNAL_ERROR") onUnexpectedError?.(error);
  const body: ToolErrorBody = {
    error: failure.message,
    code: failure.code,
    ...(failure.issues === undefined ? {} : { issues: failure.issues }),
  };
  return toolErrorResult(body);
}
