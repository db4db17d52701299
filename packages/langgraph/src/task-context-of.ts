import type { TaskContext } from "@task-context/core";

/**
 * The key under which {@link withTaskContext} puts the delivered context in LangGraph's runtime
 * context (`runtime.context.taskContext`, `config.context.taskContext`) for the subgraph or node
 * it wraps and every node inside it.
 */
export const TASK_CONTEXT_KEY = "taskContext";

/**
 * The task context delivered to the subgraph or node this runs in, from LangGraph's runtime
 * context (a node's second argument: its `runtime`, or `config` in LangGraph 1.0): what
 * `loadTaskContext` returned for it, with its view, `sha256` (the receipt) and `warning`.
 * `undefined` outside a subgraph or node wrapped by {@link withTaskContext}. Pass it to
 * `injectTaskContext` from `@task-context/core` to give a model call of the node the same context.
 *
 * @example
 * ```ts source="../examples/node-prompt.ts#taskContextOf"
 * const summarise = async (state: { notes: string }, runtime: LangGraphRunnableConfig) => {
 *   const prompt = injectTaskContext(`Summarise: ${state.notes}`, taskContextOf(runtime));
 *   // "[Task Context]\n{CONTEXT.md, or the subgraph's view of it}\n\n[Request]\nSummarise: …"
 *   return { summary: await callModel(prompt) };
 * };
 *
 * ```
 */
export function taskContextOf(runtime: unknown): TaskContext | undefined {
  if (typeof runtime !== "object" || runtime === null) return undefined;
  const context = (runtime as { context?: unknown }).context;
  if (typeof context !== "object" || context === null) return undefined;
  const delivered = (context as Record<string, unknown>)[TASK_CONTEXT_KEY];
  if (typeof delivered !== "object" || delivered === null) return undefined;
  const { content, sha256 } = delivered as Partial<TaskContext>;
  return typeof content === "string" && typeof sha256 === "string"
    ? (delivered as TaskContext)
    : undefined;
}
