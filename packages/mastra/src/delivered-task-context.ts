import type { TaskContextReceipt } from "./task-context-receipt.ts";

/**
 * The key of the request-context entry each delegation of {@link taskContextDelegation} sets in
 * the sub-agent's own request context (Mastra derives one per delegation; the caller's is never
 * changed).
 */
export const TASK_CONTEXT_KEY = "taskContext";

/**
 * The entry under {@link TASK_CONTEXT_KEY}: the context the sub-agent received, and its receipt.
 * Plain JSON, so that a durable run, which snapshots its request context, carries it to the
 * process that resumes it.
 */
export interface DeliveredTaskContext {
  /** The text delivered (the view's, with a view); "" when nothing was (`required: false`). */
  content: string;
  /** The delivery's receipt. */
  receipt: TaskContextReceipt;
}

/** The part of Mastra's `RequestContext` this package reads. */
export interface RequestContextLike {
  get(key: string): unknown;
}

/**
 * The task context a delegation delivered into `requestContext`, for the sub-agent's tools,
 * dynamic instructions or nested workflows (each gets the request context); undefined outside a
 * delegation of {@link taskContextDelegation}
 * (a tool's `execute(input, { requestContext })`, `instructions: ({ requestContext }) => …`).
 */
export function deliveredTaskContext(
  requestContext: RequestContextLike | undefined,
): DeliveredTaskContext | undefined {
  const entry = requestContext?.get(TASK_CONTEXT_KEY) as Partial<DeliveredTaskContext> | undefined;
  if (typeof entry !== "object" || entry === null) return undefined;
  if (typeof entry.content !== "string" || typeof entry.receipt !== "object") return undefined;
  return entry as DeliveredTaskContext;
}
