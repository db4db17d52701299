import { GEN_AI_ATTRIBUTES, loadTaskContext, type TaskContext } from "@task-context/core";
import { contextViewAttributes } from "@task-context/core/internal";
import { traceDelivery } from "@task-context/core/tracing";
import type { CheckedDeliveryOptions } from "./delivery-options.ts";

/** The instrumentation scope of this package's delivery spans. */
export const OPENAI_AGENTS_TRACER = "@task-context/openai-agents";

/**
 * Loads CONTEXT.md (through the delivery's view) for the agent `agent` inside its delivery span,
 * `invoke_agent {agent}` (the OpenTelemetry GenAI convention for invoking an agent), whose
 * recipient is the `subagent` `agent`. The span is a child of the active span, so a run inside
 * one of the application's spans stays one trace. A missing CONTEXT.md throws core's
 * `TaskContextMissingError`, recorded on the span.
 */
export function loadForAgent(options: CheckedDeliveryOptions, agent: string): Promise<TaskContext> {
  return traceDelivery(
    {
      tracer: OPENAI_AGENTS_TRACER,
      name: `invoke_agent ${agent}`,
      recipient: { kind: "subagent", id: agent },
      attributes: {
        [GEN_AI_ATTRIBUTES.operationName]: "invoke_agent",
        [GEN_AI_ATTRIBUTES.agentName]: agent,
      },
    },
    async (span) => {
      const context = await loadTaskContext(options.workspace, options.load);
      if (context.found) {
        span.recordContext(context, options.load.tokenizer);
        span.setAttributes(contextViewAttributes(context));
      } else {
        span.setOutcome("empty");
      }
      return context;
    },
  );
}
