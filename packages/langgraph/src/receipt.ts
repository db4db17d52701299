import type { TaskContext } from "@task-context/core";
import { type ContextReceipt, contextReceipt } from "@task-context/core/internal";

/**
 * The key under which {@link withTaskContext} puts the receipt of the context it delivered in the
 * run's metadata (`config.metadata.taskContext`), where LangSmith traces and LangChain callbacks
 * (`handleChainStart`'s `metadata`) show it for the subgraph's run and every run inside it.
 */
export const TASK_CONTEXT_METADATA_KEY = "taskContext";

/**
 * The receipt of one delivery: the hex SHA-256 of the context delivered (the view's text, with a
 * view), the view's name, sections and the whole file's hash when it was a view, and the warning
 * when there was something to say (a truncated CONTEXT.md, a forged header in the request).
 * The same shape as the middleware's `providerMetadata.taskContext` in `@task-context/media-tools`.
 */
export interface TaskContextReceipt extends ContextReceipt {
  warning?: string;
}

/** The receipt of `context` as delivered, with `warning` when there is one. */
export function receiptOf(context: TaskContext, warning: string | undefined): TaskContextReceipt {
  return { ...contextReceipt(context), ...(warning === undefined ? {} : { warning }) };
}
