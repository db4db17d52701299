import type { CallToolResult } from "@modelcontextprotocol/server";
import { TaskContextError } from "@task-context/core";
import { thrownMessage } from "@task-context/core/internal";
import { type ToolErrorBody, toolErrorResult } from "./tool-results.ts";

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
 * Any failure of a workspace tool as a tool error ({@link toolErrorResult}). A task-context
 * refusal (the missing-CONTEXT.md guidance, a symbolic link out of the workspace, invalid
 * arguments) keeps its code and message; anything else thrown is `INTERNAL_ERROR` with its
 * message (never an operating system's, which names paths).
 */
export function toolError(error: unknown, tool?: string): CallToolResult {
  const known = TaskContextError.isInstance(error);
  const code = known ? error.code : "INTERNAL_ERROR";
  const message = known
    ? thrownMessage(error)
    : `${tool ?? "The tool"} failed unexpectedly: ${thrownMessage(error)}. Try again; if it keeps failing, report it.`;
  const issues = issuesOf(error);
  const body: ToolErrorBody = { error: message, code, ...(issues.length > 0 && { issues }) };
  return toolErrorResult(body);
}
