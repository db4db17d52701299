import { operations } from "@task-context/contract";
import { graphemeBoundaryAtOrBefore } from "@task-context/core/internal";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { RunListEntry, RunListPosition } from "../delivery/delivery-store.ts";
import { base64url, isId } from "../delivery/ids.ts";
import { iso } from "../delivery/machine/draft.ts";
import { defineHandler } from "../execution/operation-handler.ts";

/** Runs on a page when the request does not say. */
const DEFAULT_LIMIT = 50;

/** The most characters of a goal's first line a run's summary shows. */
const GOAL_SUMMARY_CHARACTERS = 200;

type RunStatus = RunListEntry["status"];

/** A page's cursor: where the next page starts, as `v1.<created_at ms>.<run_id>` in base64url. */
export function encodeRunCursor({ created_at, run_id }: RunListPosition): string {
  return base64url(new TextEncoder().encode(`v1.${created_at}.${run_id}`));
}

const cursorText = /^v1\.([0-9]{1,15})\.(run_[0-9a-z]{26})$/;

function badCursor(): DeliveryError {
  return new DeliveryError({
    code: "INVALID_REQUEST",
    message:
      "cursor is not one this service gave: pass next_cursor of the previous page as it was, or leave cursor out to start from the newest run.",
    issues: [{ path: "/cursor", message: "Not a cursor of GET /v1/runs." }],
  });
}

/** The position a cursor names; `INVALID_REQUEST` for text that is not a cursor. */
export function decodeRunCursor(cursor: string): RunListPosition {
  let text: string;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor();
    text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    throw badCursor();
  }
  const match = cursorText.exec(text);
  if (match === null || !isId("run", match[2] as string)) throw badCursor();
  return { created_at: Number(match[1]), run_id: match[2] as string };
}

/**
 * A goal's first line (after leading blank space), whole when it is the whole goal; otherwise
 * ending in `…`, cut at a grapheme boundary to at most 200 characters.
 */
export function goalSummary(goal: string): string {
  const text = goal.trimStart();
  const line = text.split(/\r\n|\r|\n/, 1)[0] as string;
  const characters = Array.from(line);
  if (characters.length <= GOAL_SUMMARY_CHARACTERS) {
    return line.length === text.length ? line : `${line}…`;
  }
  const cut = characters.slice(0, GOAL_SUMMARY_CHARACTERS - 1).join("").length;
  return `${line.slice(0, graphemeBoundaryAtOrBefore(line, cut))}…`;
}

/** `GET /v1/runs`: the service's runs, newest first, a page at a time. */
export const listRuns = defineHandler(operations.listRuns, {
  handle: async ({ query }, { service }) => {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const statuses = query.status?.split(",") as RunStatus[] | undefined;
    const after = query.cursor === undefined ? undefined : decodeRunCursor(query.cursor);
    // One more than the page: whether there is a next page, without a second read.
    const entries = await service.store.query("runList", undefined, {
      statuses,
      limit: limit + 1,
      after,
    });
    if (entries === undefined) throw badCursor();
    const page = entries.slice(0, limit);
    const last = page.at(-1);
    return {
      runs: page.map((entry) => ({
        run_id: entry.run_id,
        status: entry.status,
        created_at: iso(entry.created_at),
        goal: goalSummary(entry.goal),
        current_stage: entry.current_stage,
      })),
      next_cursor: entries.length > limit && last !== undefined ? encodeRunCursor(last) : null,
    };
  },
});
