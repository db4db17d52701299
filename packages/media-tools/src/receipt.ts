import { checkReceipt, loadTaskContext, type TaskContext } from "@task-context/core";
import type { MediaRuntime } from "./media-runtime.ts";

/**
 * A tool's output with its receipt: `contextSha256`, the hash of the CONTEXT.md content sent
 * with the request, and, when CONTEXT.md no longer delivers that content once the external call
 * is done (it was rewritten while a video rendered), core's stale-receipt warning after the
 * output's own. CONTEXT.md removed meanwhile adds nothing: the result was made with what was sent.
 */
export async function withReceipt<Output extends { warning?: string }>(
  runtime: MediaRuntime,
  tool: string,
  delivered: TaskContext,
  output: Output,
): Promise<Output & { contextSha256: string }> {
  const now = await loadTaskContext(runtime.workspace, { ...runtime.context, required: false });
  const stale = now.found
    ? checkReceipt({ quoted: delivered.sha256, current: now.sha256, recipient: tool }).warning
    : undefined;
  const warning = [output.warning, stale].filter((text) => text !== undefined).join(" ");
  return {
    ...output,
    contextSha256: delivered.sha256,
    ...(warning === "" ? {} : { warning }),
  };
}
