import type { TaskContext } from "@task-context/core";
import { type ContextReceipt, contextReceipt } from "@task-context/core/internal";

/**
 * The receipt of one delivery to a subagent: which subagent (`subagent_type`, `general-purpose`
 * when the call names none) and which call of the subagent tool, the hex SHA-256 of the context
 * delivered (the view's text, with a view), the view's name, sections and the whole file's hash
 * when it was a view, and the warning when there was something to say (a truncated CONTEXT.md, a
 * forged header in the delegation prompt). The fields of the other adapters' receipts.
 */
export interface TaskContextReceipt extends ContextReceipt {
  agent: string;
  toolUseId: string | undefined;
  warning?: string;
}

/** The receipt of `context`, delivered to `agent` in the tool call `toolUseId`. */
export function receiptOf(
  agent: string,
  toolUseId: string | undefined,
  context: TaskContext,
  warning: string | undefined,
): TaskContextReceipt {
  return {
    agent,
    toolUseId,
    ...contextReceipt(context),
    ...(warning === undefined ? {} : { warning }),
  };
}
