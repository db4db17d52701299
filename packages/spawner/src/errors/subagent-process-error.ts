import { TaskContextError } from "@task-context/core";

const marker = "task-context.error.SubagentProcessError";
const symbol = Symbol.for(marker);

/**
 * A subagent process could not be started, exited unsuccessfully, wrote more output than allowed,
 * or was stopped. `log` holds the end of what it wrote to stderr, which `spawnSubagents` puts in
 * the result's `notes`. `childProcessRunner` rejects with it; `spawnSubagents` turns it into a
 * `"failure"` result (or `"timeout"` / `"aborted"` when it stopped the process).
 *
 * @example
 * ```ts source="../../examples/subagent-process-error.ts#subagentProcessError"
 * try {
 *   await childProcessRunner({ command: "my-agent" }).run(invocation);
 * } catch (error) {
 *   if (SubagentProcessError.isInstance(error)) console.error(error.message, error.log);
 * }
 * ```
 */
export class SubagentProcessError extends TaskContextError<"SUBAGENT_PROCESS_FAILED"> {
  protected readonly [symbol] = true;
  override name = "SubagentProcessError";
  /** The tail of the process's stderr, when it wrote any. */
  readonly log: string | undefined;

  constructor({
    message,
    log,
    cause,
  }: {
    message: string;
    log?: string | undefined;
    cause?: unknown;
  }) {
    super({ code: "SUBAGENT_PROCESS_FAILED", message, cause });
    this.log = log;
  }

  static override isInstance(error: unknown): error is SubagentProcessError {
    return TaskContextError.hasMarker(error, marker);
  }
}
