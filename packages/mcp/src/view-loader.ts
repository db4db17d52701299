import {
  type ContextView,
  loadTaskContext,
  type TaskContext,
  type Workspace,
} from "@task-context/core";
import { type CheckedLoadOptions, contextViewAttributes } from "@task-context/core/internal";
import { currentDelivery } from "@task-context/core/tracing";

/** Loads a view of CONTEXT.md with the server's limits, on every call. */
export type ViewLoader = (view: ContextView) => Promise<TaskContext>;

/**
 * A loader of views of CONTEXT.md through `workspace` with the checked options (required),
 * recording what it loaded — the view's text, name, sections and the whole file's hash — on the
 * delivery span it runs in. A view that selects nothing throws `ContextViewEmptyError`.
 */
export function viewLoader(
  workspace: Workspace,
  { maxChars, maxTokens, tokenizer, secrets }: CheckedLoadOptions,
): ViewLoader {
  return async (view) => {
    const context = await loadTaskContext(workspace, {
      maxChars,
      maxTokens,
      tokenizer,
      secrets,
      view,
      required: true,
    });
    const span = currentDelivery();
    span?.recordContext(context, tokenizer);
    span?.setAttributes(contextViewAttributes(context));
    return context;
  };
}

/** The view a context delivered, as the tools' structured results and `_meta` spell it. */
export function viewFacts(
  context: TaskContext,
): { view: { name: string; sections: string[]; fileSha256: string } } | Record<string, never> {
  if (context.view === undefined) return {};
  const { name, sections, fileSha256 } = context.view;
  return { view: { name, sections: [...sections], fileSha256 } };
}
