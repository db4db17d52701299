import { GEN_AI_ATTRIBUTES } from "@task-context/core";
import { contextViewAttributes } from "@task-context/core/internal";
import { traceDelivery } from "@task-context/core/tracing";
import type { PlannedTask } from "./check-spawn-arguments.ts";
import type { SpawnRun } from "./run-subagent.ts";
import type { SubagentResult } from "./subagent-result.ts";

/**
 * Runs one subagent inside its delivery span, `invoke_agent {subagentType}` (the OpenTelemetry
 * GenAI convention for invoking an agent), with the parent's context it inherited (its view, when
 * its task has one); a result other
 * than `success` marks the span failed with the status as `error.type` and outcome.
 */
export function traceSubagent(
  run: SpawnRun,
  task: PlannedTask,
  spawn: () => Promise<SubagentResult>,
): Promise<SubagentResult> {
  return traceDelivery(
    {
      tracer: "@task-context/spawner",
      name: `invoke_agent ${task.subagentType}`,
      recipient: { kind: "subagent", id: task.id },
      attributes: {
        [GEN_AI_ATTRIBUTES.operationName]: "invoke_agent",
        [GEN_AI_ATTRIBUTES.agentId]: task.id,
        [GEN_AI_ATTRIBUTES.agentName]: task.subagentType,
      },
    },
    async (span) => {
      const { context } = run.contexts.of(task);
      span.recordContext(context, run.plan.load.tokenizer);
      span.setAttributes(contextViewAttributes(context));
      const result = await spawn();
      if (result.status !== "success") span.fail(result.status, result.summary, result.status);
      return result;
    },
  );
}
