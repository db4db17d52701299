import type { TaskContext } from "@task-context/core";
import { deliverToAgent } from "@task-context/core/tracing";
import type { CheckedDeliveryOptions } from "./delivery-options.ts";

/** The instrumentation scope of this package's delivery spans. */
export const OPENAI_AGENTS_TRACER = "@task-context/openai-agents";

/**
 * Loads CONTEXT.md (through the delivery's view) for the agent `agent` inside its delivery span,
 * `invoke_agent {agent}` (core's `deliverToAgent`), whose recipient is the `subagent` `agent`.
 * The span is a child of the active span, so a run inside one of the application's spans stays
 * one trace. A missing CONTEXT.md throws core's `TaskContextMissingError`, recorded on the span;
 * with `required: false` the span ends `empty`.
 */
export function loadForAgent(options: CheckedDeliveryOptions, agent: string): Promise<TaskContext> {
  const { workspace, load } = options;
  return deliverToAgent(
    { tracer: OPENAI_AGENTS_TRACER, agent, workspace, load },
    (context) => context,
  );
}
