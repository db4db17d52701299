import type { CallToolResult } from "@modelcontextprotocol/server";
import { TaskContextError } from "@task-context/core";
import { thrownMessage } from "@task-context/core/internal";

/** The `_meta` key of a tool error's body: `_meta["task-context/error"]`. */
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

/** `{ path, message }` of each issue an error carries (other fields, such as `line`, are left out). */
function issuesOf(error: unknown): Array<{ path: string; message: string }> {
  const { issues } = error as { issues?: unknown };
  if (!Array.isArray(issues)) return [];
  return issues
    .filter(
      (issue): issue is { path: string; message: string } =>
        typeof issue?.path === "string" && typeof issue?.message === "string",
    )
    .map(({ path, message }) => ({ path, message }));
}

/**
 * A tool error (`isError: true`) in the one shape of task-context's MCP servers: the text
 * `<CODE>: <message>` for the model, and `_meta["task-context/error"]` = `{ error, code, issues? }`
 * for a program. No `structuredContent`: a tool's output schema describes its successes, and
 * clients check structured content against it even on errors. A task-context refusal (the
 * missing-CONTEXT.md guidance, a symbolic link out of the workspace, invalid arguments) keeps its
 * code and message; anything else thrown is `INTERNAL_ERROR` with its message (never an
 * operating system's, which names paths).
 */
export function toolError(error: unknown, tool?: string): CallToolResult {
  const known = TaskContextError.isInstance(error);
  const code = known ? error.code : "INTERNAL_ERROR";
  const message = known
    ? thrownMessage(error)
    : `${tool ?? "The tool"} failed unexpectedly: ${thrownMessage(error)}. Try again; if it keeps failing, report it.`;
  const issues = issuesOf(error);
  const body: ToolErrorBody = { error: message, code, ...(issues.length > 0 && { issues }) };
  return {
    content: [{ type: "text", text: `${code}: ${message}` }],
    isError: true,
    _meta: { [TOOL_ERROR_META_KEY]: body },
  };
}
