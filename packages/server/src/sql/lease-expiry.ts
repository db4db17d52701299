import { countFailure } from "./failures.ts";
import { emitEvent } from "./run-events.ts";
import type { RunState } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ItemRow } from "./sql-rows.ts";

/** Expires every overdue lease of the run: each is a failed attempt. */
export function expireOverdueLeases(database: SqlDatabase, state: RunState): void {
  const overdue = database.all<ItemRow>(
    `SELECT * FROM work_items WHERE run_id = ? AND status = 'leased' AND lease_expires_at <= ?
     ORDER BY lease_expires_at, offered_seq`,
    state.run.id,
    state.now,
  );
  for (const item of overdue) {
    database.run(
      `UPDATE attempts SET outcome = 'expired', ended_at = ?
       WHERE run_id = ? AND work_item_id = ? AND attempt = ?`,
      item.lease_expires_at,
      state.run.id,
      item.id,
      item.attempt,
    );
    emitEvent(database, state, "work_item.lease_expired", {
      work_item_id: item.id,
      agent_tag: item.holder_tag ?? "",
      attempt: item.attempt,
    });
    countFailure(database, state, item);
  }
}

/** The ids of the runs that hold a lease overdue at `now`. */
export function runsWithOverdueLeases(database: SqlDatabase, now: number): string[] {
  return database
    .all<{ run_id: string }>(
      "SELECT DISTINCT run_id FROM work_items WHERE status = 'leased' AND lease_expires_at <= ?",
      now,
    )
    .map(({ run_id }) => run_id);
}

/** The earliest lease expiry of a run, in milliseconds, or undefined when nothing is leased. */
export function nextLeaseExpiry(database: SqlDatabase, runId: string): number | undefined {
  const [row] = database.all<{ next: number | null }>(
    "SELECT min(lease_expires_at) AS next FROM work_items WHERE run_id = ? AND status = 'leased'",
    runId,
  );
  return row?.next ?? undefined;
}
