import {
  type ContextView,
  ContextViewEmptyError,
  contextChangedWarning,
  loadTaskContext,
  type TaskContext,
  type TaskContextView,
} from "@task-context/core";
import type { MediaRuntime } from "./media-runtime.ts";

/**
 * A tool's output with its receipt: `contextSha256`, the hash of the CONTEXT.md content sent
 * with the request (with a view, the view's text; `contextView` then names the view, its sections
 * and the whole file's hash), and, when the agent's CONTEXT.md no longer delivers that content
 * once the external call is done (it was rewritten, or removed, while a video rendered), core's
 * context-changed warning after the output's own: it tells the agent it was its CONTEXT.md.
 */
export async function withReceipt<Output extends { warning?: string }>(
  runtime: MediaRuntime,
  tool: string,
  delivered: TaskContext,
  output: Output,
  view?: ContextView,
): Promise<Output & { contextSha256: string; contextView?: TaskContextView }> {
  const now = await loadTaskContext(runtime.workspace, {
    ...runtime.context,
    view,
    required: false,
  }).catch((error: unknown) => {
    // The rewritten file no longer has the view's sections: it changed.
    if (ContextViewEmptyError.isInstance(error)) return undefined;
    throw error;
  });
  const stale = contextChangedWarning({
    recipient: tool,
    given: delivered.sha256,
    current: now?.found ? now.sha256 : undefined,
  });
  const warning = [output.warning, stale].filter((text) => text !== undefined).join(" ");
  return {
    ...output,
    // A context fitted to the model's limit has the receipt of what was sent.
    contextSha256: (output as { contextSha256?: string }).contextSha256 ?? delivered.sha256,
    ...(delivered.view === undefined ? {} : { contextView: delivered.view }),
    ...(warning === "" ? {} : { warning }),
  };
}
