import type { CollaborationEvent } from "@task-context/protocols";
import { type Markup, markup } from "./markup.ts";

/**
 * The fields an event's line shows, by path, in this order: the server renders them and the
 * page's script renders new events with the same list, so both lines read alike.
 */
export const eventLineFields: readonly (readonly [label: string, path: string])[] = [
  ["stage", "stage_id"],
  ["item", "work_item_id"],
  ["kind", "kind"],
  ["agent", "agent_tag"],
  ["attempt", "attempt"],
  ["attempts", "attempts"],
  ["lease until", "expires_at"],
  ["reason", "reason"],
  ["artifact", "artifact.artifact_id"],
  ["artifact", "artifact_id"],
  ["reviewer", "feedback.reviewer_tag"],
  ["verdict", "feedback.verdict"],
  ["findings", "findings.length"],
];

/** The value at a dotted path of an event, when it is a string or a number. */
function at(event: unknown, path: string): string | undefined {
  let value: unknown = event;
  for (const key of path.split(".")) {
    value =
      typeof value === "object" && value !== null
        ? (value as Record<string, unknown>)[key]
        : undefined;
  }
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

/** An event's key fields as one line: `item wi_…, agent writer, attempt 1`. */
export function eventSummary(event: CollaborationEvent): string {
  return eventLineFields
    .flatMap(([label, path]) => {
      const value = at(event, path);
      return value === undefined ? [] : [`${label} ${value}`];
    })
    .join(", ");
}

/** One event as a list item: time, type and key fields. */
function renderEvent(event: CollaborationEvent): Markup {
  return markup`<li data-seq="${event.seq}" data-type="${event.type}"><time datetime="${event.at}">${event.at.slice(11, 19)}</time> <strong>${event.type}</strong> <span>${eventSummary(event)}</span></li>`;
}

/** The run's events, oldest first (newest last); `skipped` earlier ones are left out. */
export function renderEvents(events: readonly CollaborationEvent[], skipped: number): Markup {
  const note =
    skipped > 0
      ? markup`<p class="muted">${skipped} earlier events are not shown: GET /v1/runs/{run_id}/events lists them all.</p>`
      : "";
  return markup`${note}<ol id="events" aria-live="polite" aria-label="Events">${events.map(renderEvent)}</ol>`;
}
