import type { WorkItemOverview } from "../delivery/delivery-store.ts";
import { type Markup, markup } from "./markup.ts";

/** Where the page's forms send their view token. */
export interface PageAccess {
  runId: string;
  /** The view token the page's forms and script send (the admin's page gets one too). */
  viewToken: string;
  /** Whether the page shows Requeue buttons. */
  canRequeue: boolean;
}

/** "in 1 min 5 s", "in 12 s", "expired": what the script's countdown writes too. */
export function countdown(expiresAt: string, nowMs: number): string {
  const seconds = Math.ceil((Date.parse(expiresAt) - nowMs) / 1000);
  if (seconds <= 0) return "expired";
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `in ${minutes} min ${seconds % 60} s` : `in ${seconds} s`;
}

/** The path of a dead letter's requeue form. */
export function requeuePath(runId: string, workItemId: string): string {
  return `/runs/${encodeURIComponent(runId)}/work-items/${encodeURIComponent(workItemId)}/requeue`;
}

function history(item: WorkItemOverview): Markup {
  return markup`<details><summary>History (${item.attempts.length} attempts)</summary><ol>${item.attempts.map(
    (attempt) =>
      markup`<li>Attempt ${attempt.attempt} by ${attempt.agent_tag}: ${attempt.outcome}${attempt.reason === undefined ? "" : markup` — ${attempt.reason}`} (<time datetime="${attempt.ended_at ?? attempt.leased_at}">${attempt.ended_at ?? attempt.leased_at}</time>)</li>`,
  )}</ol></details>`;
}

function stateCell(item: WorkItemOverview, access: PageAccess): Markup {
  if (item.state !== "dead_lettered") return markup`<td>${item.state.replace("_", " ")}</td>`;
  const form = access.canRequeue
    ? markup`<form method="post" action="${requeuePath(access.runId, item.id)}"><input type="hidden" name="view" value="${access.viewToken}"><button type="submit" aria-describedby="item-${item.id}">Requeue</button></form>`
    : "";
  return markup`<td><span class="dead">⚠ dead-lettered</span>${history(item)}${form}</td>`;
}

function leaseCell(item: WorkItemOverview, nowMs: number): Markup {
  if (item.lease_expires_at === undefined) return markup`<td></td>`;
  return markup`<td><time datetime="${item.lease_expires_at}" data-countdown>${countdown(item.lease_expires_at, nowMs)}</time></td>`;
}

/** Every work item as a table row: state, attempt, holder, lease countdown and context hash. */
export function renderItems(
  items: readonly WorkItemOverview[],
  access: PageAccess,
  nowMs: number,
): Markup {
  const rows = items.map(
    (item) => markup`<tr data-work-item-id="${item.id}" data-state="${item.state}">
<th scope="row" id="item-${item.id}"><code>${item.id}</code></th>
<td>${item.stage_id}</td>
<td>${item.kind}</td>
${stateCell(item, access)}
<td>${item.attempt}</td>
<td>${item.holder_tag ?? ""}</td>
${leaseCell(item, nowMs)}
<td><code title="${item.context_sha256}">${item.context_sha256.slice(0, 12)}</code></td>
</tr>`,
  );
  return markup`<div class="table-scroll" data-region="items" tabindex="0" role="region" aria-label="Work items (scrolls sideways)">
<table>
<caption class="visually-hidden">Work items</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Stage</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col">Attempt</th><th scope="col">Holder</th><th scope="col">Lease</th><th scope="col">Context</th></tr></thead>
<tbody>${rows}</tbody>
</table>
</div>`;
}
