import type { CollaborationEvent } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import { newId } from "../delivery/ids.ts";
import type { RunState } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { iso } from "./sql-rows.ts";

/** An event without the fields every event has. */
export type EventFields<Type extends CollaborationEvent["type"]> = Omit<
  Extract<CollaborationEvent, { type: Type }>,
  "type" | "id" | "seq" | "run_id" | "at"
>;

/** Appends an event with the run's next `seq` and moves the run's `last_seq` (row and state). */
export function emitEvent<Type extends CollaborationEvent["type"]>(
  database: SqlDatabase,
  state: RunState,
  type: Type,
  fields: EventFields<Type>,
): CollaborationEvent {
  const seq = state.run.last_seq + 1;
  const event = {
    type,
    id: newId("evt"),
    seq,
    run_id: state.run.id,
    at: iso(state.now),
    ...fields,
  } as unknown as CollaborationEvent;
  database.run(
    "INSERT INTO events (run_id, seq, body) VALUES (?, ?, ?)",
    state.run.id,
    seq,
    JSON.stringify(event),
  );
  database.run("UPDATE runs SET last_seq = ? WHERE id = ?", seq, state.run.id);
  state.run.last_seq = seq;
  return event;
}

/** The run's events with `seq` greater than `after`, at most `limit`. */
export function eventPage(
  database: SqlDatabase,
  runId: string,
  after: number,
  limit: number,
): Contract.EventPage {
  const rows = database.all<{ seq: number; body: string }>(
    "SELECT seq, body FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    runId,
    after,
    limit,
  );
  const events = rows.map((row) => JSON.parse(row.body) as CollaborationEvent);
  return { events, next_after: rows.at(-1)?.seq ?? after };
}
