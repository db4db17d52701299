import { contextChangedWarning, loadTaskContext, type TaskContext } from "@task-context/core";
import type { MediaRuntime } from "./media-runtime.ts";

/**
 * A tool's output with its receipt: `contextSha256`, the hash of the CONTEXT.md content sent
 * with the request, and, when the agent's CONTEXT.md no longer delivers that content once the
 * external call is done (it was rewritten, or removed, while a video rendered), core's
 * context-changed warning after the output's own: it tells the agent it was its CONTEXT.md.
 */
export async function withReceipt<Output extends { warning?: string }>(
  runtime: MediaRuntime,
  tool: string,
  delivered: TaskContext,
  output: Output,
): Promise<Output & { contextSha256: string }> {
  const now = await loadTaskContext(runtime.workspace, { ...runtime.context, required: false });
  const stale = contextChangedWarning({
    recipient: tool,
    given: delivered.sha256,
    current: now.found ? now.sha256 : undefined,
  });
  const warning = [output.warning, stale].filter((text) => text !== undefined).join(" ");
  return {
    ...output,
    contextSha256: delivered.sha256,
    ...(warning === "" ? {} : { warning }),
  };
}
