import { loadTaskContextFrom } from "../load-task-context-from.ts";
import type { LoadTaskContextOptions, TaskContext } from "../task-context.ts";
import type { Workspace } from "../workspace.ts";
import { contextViewAttributes } from "./context-view-attributes.ts";
import { GEN_AI_ATTRIBUTES } from "./delivery-attributes.ts";
import { type DeliverySpan, traceDelivery } from "./trace-delivery.ts";

/** Where {@link deliverToAgent} loads CONTEXT.md from, and for which agent. */
export interface AgentDeliveryOptions {
  /** The instrumentation scope: the adapter that delivers, e.g. `@task-context/langgraph`. */
  tracer: string;
  /** The agent (subagent, subgraph) that receives the context: the span's recipient. */
  agent: string;
  workspace: Workspace;
  /** The load options, already checked; their `tokenizer` counts the tokens on the span. */
  load: LoadTaskContextOptions;
}

/**
 * One delivery of an agent framework's adapter: opens the span `invoke_agent {agent}` (the
 * OpenTelemetry GenAI convention for invoking an agent; recipient kind `subagent`) as a child of
 * the active span, loads CONTEXT.md from the workspace inside it, records the context and its
 * view on the span when one was found, and runs `deliver` with it inside the span, so that the
 * spans of what `deliver` starts (the agent's run) nest under it. A CONTEXT.md that cannot be
 * delivered throws core's error, recorded on the span; without one (`required: false`) the agent
 * still runs, and the span ends `empty` (nothing delivered) for every adapter alike, unless
 * `deliver` fails it.
 *
 * @internal
 */
export function deliverToAgent<Result>(
  options: AgentDeliveryOptions,
  deliver: (context: TaskContext, span: DeliverySpan) => Result | PromiseLike<Result>,
): Promise<Result> {
  const { tracer, agent, workspace, load } = options;
  return traceDelivery(
    {
      tracer,
      name: `invoke_agent ${agent}`,
      recipient: { kind: "subagent", id: agent },
      attributes: {
        [GEN_AI_ATTRIBUTES.operationName]: "invoke_agent",
        [GEN_AI_ATTRIBUTES.agentName]: agent,
      },
    },
    async (span) => {
      const context = await loadTaskContextFrom(workspace, load);
      if (context.found) {
        span.recordContext(context, load.tokenizer);
        span.setAttributes(contextViewAttributes(context));
      } else {
        span.setOutcome("empty");
      }
      return deliver(context, span);
    },
  );
}
