import type { TaskContext, TaskContextView } from "@task-context/core";
import { contextReceipt, joinWarnings } from "@task-context/core/internal";

/** How an agent of the OpenAI Agents SDK received the task context. */
export type TaskContextDeliveryRoute = "handoff" | "agent-tool";

/**
 * What one delivery gave an agent: its receipt. The same record is the data of the `task_context`
 * custom span in the run's trace (in snake_case there), and `onDelivery` receives it.
 */
export interface TaskContextReceipt {
  /** The name of the agent that received the context. */
  agent: string;
  /** `handoff` (a {@link taskContextHandoff}) or `agent-tool` (a {@link taskContextAgentTool}). */
  route: TaskContextDeliveryRoute;
  /**
   * Hex SHA-256 of the context delivered — the view's text with a view. Absent when nothing was
   * delivered (`required: false` and no usable CONTEXT.md).
   */
  contextSha256?: string;
  /** The view delivered, with the whole file's hash: present with a view. */
  contextView?: TaskContextView;
  /**
   * What the receiving agent's owner should know: a truncated or redacted CONTEXT.md, a heading
   * a view names that the file lacks, passages of the conversation or the request that posed as
   * the task-context format and were neutralised.
   */
  warning?: string;
}

/** The receipt of `context` delivered to `agent` by `route`, with `warnings` joined. */
export function receiptOf(
  agent: string,
  route: TaskContextDeliveryRoute,
  context: TaskContext,
  warnings: readonly (string | undefined)[],
): TaskContextReceipt {
  const warning = joinWarnings([context.warning, ...warnings]);
  return {
    agent,
    route,
    ...(context.found ? contextReceipt(context) : {}),
    ...(warning === undefined ? {} : { warning }),
  };
}
