import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.HandoffNotInvokedError";
const symbol = Symbol.for(marker);

/** Every `code` this package adds to core's (`TASK_CONTEXT_MISSING`, `INVALID_ARGUMENT`, …). */
export type OpenAiAgentsErrorCode = "HANDOFF_NOT_INVOKED";

/**
 * The input filter of a {@link taskContextHandoff} ran without the handoff having been invoked
 * first, so no CONTEXT.md was loaded for it: the filter was taken out of its handoff (set on
 * another handoff, or as `RunConfig.handoffInputFilter`) or called by hand. Rather than hand the
 * conversation over without the task context, the handoff fails with this error.
 */
export class HandoffNotInvokedError extends TaskContextError<OpenAiAgentsErrorCode> {
  protected readonly [symbol] = true;
  override name = "HandoffNotInvokedError";
  /** The agent the handoff was to. */
  readonly agent: string;

  constructor({ agent }: { agent: string }) {
    super({
      code: "HANDOFF_NOT_INVOKED",
      message: `The handoff to agent ${JSON.stringify(agent)} filtered its input before it was invoked, so no CONTEXT.md was loaded for it. Use the Handoff that taskContextHandoff returns as it is, in an agent's handoffs; do not move its inputFilter to another handoff or to RunConfig.handoffInputFilter.`,
    });
    this.agent = agent;
  }

  static override isInstance(error: unknown): error is HandoffNotInvokedError {
    return TaskContextError.hasMarker(error, marker);
  }
}
