import type { ContextView, LoadTaskContextOptions, Workspace } from "@task-context/core";
import type { PlannedTask } from "./check-spawn-arguments.ts";
import { loadParentContext, type ParentContext } from "./inherited-context.ts";

/** Identifies a view by its fields: tasks whose views are alike share one load. */
function viewKey(view: ContextView): string {
  const { name, include, exclude, maxChars, maxTokens } = view;
  return JSON.stringify([
    name,
    include ?? null,
    exclude ?? null,
    maxChars ?? null,
    maxTokens ?? null,
  ]);
}

/** What each subagent inherits: the parent's whole CONTEXT.md, or a view of it. */
export interface InheritedContexts {
  /** The parent's CONTEXT.md as a subagent without a view inherits it. */
  whole: ParentContext;
  /** The context `task` inherits: its view's, or the whole file. */
  of(task: PlannedTask): ParentContext;
}

/**
 * Loads the parent's CONTEXT.md once for the tasks without a view and once per distinct view, all
 * before anything is created: a view that selects nothing throws `ContextViewEmptyError` then, and
 * no subagent starts with an empty context.
 */
export async function loadInheritedContexts(
  parent: Workspace,
  load: Omit<LoadTaskContextOptions, "required" | "view">,
  tasks: readonly PlannedTask[],
  file: string | undefined,
): Promise<InheritedContexts> {
  const whole = await loadParentContext(parent, load, file);
  const views = new Map<string, ParentContext>();
  for (const { view } of tasks) {
    if (view === undefined || views.has(viewKey(view))) continue;
    views.set(viewKey(view), await loadParentContext(parent, { ...load, view }, file));
  }
  return {
    whole,
    of: (task) => (task.view === undefined ? whole : (views.get(viewKey(task.view)) ?? whole)),
  };
}
