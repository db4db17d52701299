import type { TaskContext, Workspace } from "@task-context/core";
import type { CheckedLoadOptions } from "@task-context/core/internal";
import { deliverToAgent } from "@task-context/core/tracing";

/** The instrumentation scope of this package's delivery spans. */
export const MASTRA_TRACER = "@task-context/mastra";

/**
 * Loads CONTEXT.md for the sub-agent (or workflow) `id` inside its delivery span,
 * `invoke_agent {id}` (core's `deliverToAgent`), whose recipient is the `subagent` `id`: a child
 * of the active span, so a run inside one of the application's spans stays one trace. A
 * CONTEXT.md that cannot be delivered throws core's error, recorded on the span; with
 * `required: false` the span ends `empty`.
 */
export function loadForPrimitive(
  workspace: Workspace,
  load: CheckedLoadOptions,
  id: string,
): Promise<TaskContext> {
  return deliverToAgent(
    { tracer: MASTRA_TRACER, agent: id, workspace, load },
    (context) => context,
  );
}
