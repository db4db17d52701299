// The receipt of a completion: the run-context hash the agent quoted back (`context_sha256`),
// checked against the item's current one with core's `checkReceipt`. It travels typed — from the
// state machine through every store (SQLite, PostgreSQL, a Durable Object, an idempotent replay)
// to the operation's handler and its span — and becomes text only at the edge, in the wire
// answer's `warning`.

import type { CompletionView } from "@task-context/contract";
import { checkReceipt } from "@task-context/core";

/**
 * The receipt of a completion: whether the run-context hash the agent quoted (`quoted`) is the
 * item's `current` one; `"none"` when it quoted none.
 */
export interface Receipt {
  status: "current" | "stale" | "none";
  quoted?: string;
  current: string;
}

/** Who a receipt's warning names: the agent, by its tag, on the work item. */
function recipientOf(agentTag: string, workItemId: string): string {
  return `agent "${agentTag}" on work item ${workItemId}`;
}

/**
 * Checks the hash an agent quoted (`quoted`, none when it quoted none) against the item's
 * `current` one, as core's `checkReceipt` does every receipt.
 */
export function checkCompletionReceipt(options: {
  quoted: string | undefined;
  current: string;
  agentTag: string;
  workItemId: string;
}): Receipt {
  const { quoted, current, agentTag, workItemId } = options;
  const checked = checkReceipt({ quoted, current, recipient: recipientOf(agentTag, workItemId) });
  if (checked.status === "unquoted") return { status: "none", current: checked.current };
  return { status: checked.status, quoted: checked.quoted ?? "", current: checked.current };
}

/**
 * The completion's wire answer: `view` with core's stale-receipt sentence for the agent tagged
 * `agentTag` first in its `warning` (before the sentence about the content it sent, when there
 * is one) when `receipt` is stale; `view` itself otherwise.
 */
export function warnOfReceipt(
  view: CompletionView,
  receipt: Receipt | undefined,
  agentTag: string,
): CompletionView {
  if (receipt?.status !== "stale") return view;
  const stale = checkReceipt({
    quoted: receipt.quoted,
    current: receipt.current,
    recipient: recipientOf(agentTag, view.work_item_id),
  }).warning;
  if (stale === undefined) return view;
  return { ...view, warning: view.warning === undefined ? stale : `${stale} ${view.warning}` };
}
