import type { TaskContext, TaskContextView } from "@task-context/core";
import { contextReceipt, joinWarnings } from "@task-context/core/internal";

/**
 * What one delegation gave a sub-agent (or a workflow): its receipt. `onDelivery` receives it, and
 * it travels in the delegation's request context with the context itself.
 */
export interface TaskContextReceipt {
  /** The id of the sub-agent or workflow delegated to (Mastra's `primitiveId`). */
  primitiveId: string;
  /** `agent` or `workflow` (Mastra's `primitiveType`). */
  primitiveType: "agent" | "workflow";
  /**
   * Hex SHA-256 of the context delivered — the view's text with a view. Absent when nothing was
   * delivered (`required: false` and no usable CONTEXT.md).
   */
  contextSha256?: string;
  /** The view delivered, with the whole file's hash: present with a view. */
  contextView?: TaskContextView;
  /**
   * What the owner should know: a truncated or redacted CONTEXT.md, a heading the view names that
   * the file lacks, passages of the prompt, the instructions or the conversation handed over that
   * posed as the task-context format and were neutralised.
   */
  warning?: string;
}

/** The receipt of `context` delivered to a primitive, with `warnings` joined. */
export function receiptOf(
  primitiveId: string,
  primitiveType: "agent" | "workflow",
  context: TaskContext,
  warnings: readonly (string | undefined)[],
): TaskContextReceipt {
  const warning = joinWarnings([context.warning, ...warnings]);
  return {
    primitiveId,
    primitiveType,
    ...(context.found ? contextReceipt(context) : {}),
    ...(warning === undefined ? {} : { warning }),
  };
}
