import {
  GEN_AI_ATTRIBUTES,
  loadTaskContext,
  type TaskContext,
  type Workspace,
} from "@task-context/core";
import { type CheckedLoadOptions, contextViewAttributes } from "@task-context/core/internal";
import { traceDelivery } from "@task-context/core/tracing";

/** The instrumentation scope of this package's delivery spans. */
export const MASTRA_TRACER = "@task-context/mastra";

/**
 * Loads CONTEXT.md for the sub-agent (or workflow) `id` inside its delivery span,
 * `invoke_agent {id}` (the OpenTelemetry GenAI convention for invoking an agent), whose recipient
 * is the `subagent` `id`: a child of the active span, so a run inside one of the application's
 * spans stays one trace. A CONTEXT.md that cannot be delivered throws core's error, recorded on
 * the span.
 */
export function loadForPrimitive(
  workspace: Workspace,
  load: CheckedLoadOptions,
  id: string,
): Promise<TaskContext> {
  return traceDelivery(
    {
      tracer: MASTRA_TRACER,
      name: `invoke_agent ${id}`,
      recipient: { kind: "subagent", id },
      attributes: {
        [GEN_AI_ATTRIBUTES.operationName]: "invoke_agent",
        [GEN_AI_ATTRIBUTES.agentName]: id,
      },
    },
    async (span) => {
      const context = await loadTaskContext(workspace, load);
      if (context.found) {
        span.recordContext(context, load.tokenizer);
        span.setAttributes(contextViewAttributes(context));
      } else {
        span.setOutcome("empty");
      }
      return context;
    },
  );
}
