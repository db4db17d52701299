// The span of an agent of the demo at work: the main agent, a child-process subagent's own side,
// a remote agent working a work item. The packages' spans (media tools, subagents, MCP, work
// items) nest under them.
import {
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

/** Who is at work, as the OpenTelemetry GenAI conventions name an agent. */
export interface AgentAtWork {
  /** `gen_ai.agent.name`, and the span's name `invoke_agent {name}`. */
  name: string;
  /** `gen_ai.agent.id`, when it differs from the name (a subagent's task, a work item). */
  id?: string;
  /** `server` for an agent invoked from elsewhere (another process, the delivery service). */
  kind?: "internal" | "server";
  /** The context to start in (another process's span): the active one by default. */
  parent?: Context;
}

/**
 * Runs `work` inside the agent's `invoke_agent {name}` span: the active one while it runs, ended
 * when it settles; a throw marks it failed and is rethrown.
 */
export function invokeAgent<Result>(
  agent: AgentAtWork,
  work: (span: Span) => Promise<Result>,
): Promise<Result> {
  const tracer = trace.getTracer("@task-context/demo-agent");
  return tracer.startActiveSpan(
    `invoke_agent ${agent.name}`,
    {
      kind: agent.kind === "server" ? SpanKind.SERVER : SpanKind.INTERNAL,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": agent.name,
        ...(agent.id === undefined ? {} : { "gen_ai.agent.id": agent.id }),
      },
    },
    agent.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
