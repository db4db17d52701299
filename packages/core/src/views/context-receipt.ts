import type { TaskContext } from "../task-context.ts";

/** The receipt of a delivered context, as the adapters and the middleware report it. */
export interface ContextReceipt {
  /** Hex SHA-256 of what was delivered: the view's text, with a view. */
  contextSha256: string;
  /** With a view: its name, its sections and the whole file's hash. */
  contextView?: { name: string; sections: string[]; fileSha256: string };
}

/**
 * The receipt of `context` as delivered: its hash and, when it was a view, the view's name,
 * sections (a copy) and the whole file's hash. For the agent-framework adapters, whose receipts
 * all carry these fields.
 *
 * @internal
 */
export function contextReceipt(context: Pick<TaskContext, "sha256" | "view">): ContextReceipt {
  const { sha256, view } = context;
  if (view === undefined) return { contextSha256: sha256 };
  const { name, sections, fileSha256 } = view;
  return { contextSha256: sha256, contextView: { name, sections: [...sections], fileSha256 } };
}
