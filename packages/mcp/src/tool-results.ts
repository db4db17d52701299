import type { CallToolResult } from "@modelcontextprotocol/server";
import { TaskContextError } from "@task-context/core";
import { thrownMessage } from "@task-context/core/internal";

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
 * A tool error (`isError: true`) for a refusal the agent can act on: the missing-CONTEXT.md
 * guidance, a symbolic link out of the workspace, a FIFO. Errors that are not task-context's own
 * propagate, and the SDK reports them as tool errors too.
 */
export function toolError(error: unknown): CallToolResult {
  if (!TaskContextError.isInstance(error)) throw error;
  return {
    content: [{ type: "text", text: thrownMessage(error) }],
    isError: true,
    _meta: { "task-context/code": error.code },
  };
}
