import type * as Contract from "../contract/schemas.ts";
import type { RunState } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { type AttemptRow, iso } from "./sql-rows.ts";

/** The outcome of one attempt at a work item, or undefined for an attempt never made. */
export function attemptOutcome(
  database: SqlDatabase,
  runId: string,
  workItemId: string,
  attempt: number,
): Contract.AttemptRecord["outcome"] | undefined {
  const [row] = database.all<{ outcome: Contract.AttemptRecord["outcome"] }>(
    "SELECT outcome FROM attempts WHERE run_id = ? AND work_item_id = ? AND attempt = ?",
    runId,
    workItemId,
    attempt,
  );
  return row?.outcome;
}

/** Records how an attempt ended, now (or when its lease expired, for a late completion). */
export function endAttempt(
  database: SqlDatabase,
  state: RunState,
  workItemId: string,
  attempt: number,
  outcome: Contract.AttemptRecord["outcome"],
  reason?: string,
): void {
  // A late completion keeps the time its lease expired at as the attempt's end.
  database.run(
    `UPDATE attempts SET outcome = ?, reason = ?, ended_at = coalesce(ended_at, ?)
     WHERE run_id = ? AND work_item_id = ? AND attempt = ?`,
    outcome,
    reason ?? null,
    state.now,
    state.run.id,
    workItemId,
    attempt,
  );
}

/** A work item's attempts, first to last, as the contract shows them. */
export function readAttempts(
  database: SqlDatabase,
  runId: string,
  workItemId: string,
): Contract.AttemptRecord[] {
  return database
    .all<AttemptRow>(
      "SELECT attempt, agent_tag, leased_at, ended_at, outcome, reason FROM attempts WHERE run_id = ? AND work_item_id = ? ORDER BY attempt",
      runId,
      workItemId,
    )
    .map(attemptRecord);
}

/** An attempt as the contract shows it. */
export function attemptRecord(row: AttemptRow): Contract.AttemptRecord {
  return {
    attempt: row.attempt,
    agent_tag: row.agent_tag,
    leased_at: iso(row.leased_at),
    ...(row.ended_at === null ? {} : { ended_at: iso(row.ended_at) }),
    outcome: row.outcome,
    ...(row.reason === null ? {} : { reason: row.reason }),
  };
}
