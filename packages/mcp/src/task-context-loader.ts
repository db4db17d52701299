import {
  type ContextView,
  loadTaskContext,
  type TaskContext,
  type Workspace,
} from "@task-context/core";
import type { CheckedLoadOptions } from "@task-context/core/internal";

/** Loads CONTEXT.md with the server's limits, on every call: a subagent always gets the file as it is now. */
export type TaskContextLoader = () => Promise<TaskContext>;

/**
 * A loader that reads CONTEXT.md through `workspace` with the checked options (required) and, with
 * `view` (checked), only that view's sections: the server's default view.
 */
export function taskContextLoader(
  workspace: Workspace,
  { maxChars, maxTokens, tokenizer, secrets }: CheckedLoadOptions,
  view?: ContextView,
): TaskContextLoader {
  return () =>
    loadTaskContext(workspace, {
      maxChars,
      maxTokens,
      tokenizer,
      secrets,
      required: true,
      ...(view !== undefined && { view }),
    });
}

/** The facts about a loaded context that travel in `_meta` and `structuredContent`. */
export function contextFacts(context: TaskContext): {
  sha256: string;
  truncated: boolean;
  originalLength: number;
  warning?: string;
} {
  const { sha256, truncated, originalLength, warning } = context;
  return warning === undefined
    ? { sha256, truncated, originalLength }
    : { sha256, truncated, originalLength, warning };
}

/**
 * `{ "task-context/sha256": …, … }`: the facts under the package's `_meta` prefix, with
 * `task-context/view` (`{ name, sections, fileSha256 }`) when a view was delivered.
 */
export function contextMeta(context: TaskContext): Record<string, unknown> {
  const meta: Record<string, unknown> = Object.fromEntries(
    Object.entries(contextFacts(context)).map(([key, value]) => [`task-context/${key}`, value]),
  );
  if (context.view !== undefined) {
    const { name, sections, fileSha256 } = context.view;
    meta["task-context/view"] = { name, sections: [...sections], fileSha256 };
  }
  return meta;
}
