// The runs of a database, newest first, a page at a time (GET /v1/runs): a keyset page after
// the last run of the previous one, so that runs created meanwhile never shift a page. The same
// read runs on the runs of an SQL store and the entries of the Workers runs directory.
import type { RunListEntry, RunListQuery } from "../../delivery/delivery-store.ts";
import { defineServiceRead } from "../define-read.ts";
import type { SqlValue } from "../sql-database.ts";
import { all, type SqlSteps } from "../sql-steps.ts";

/**
 * The runs of `query` among the runs of `sources`, newest first (`created_at`, then `run_id`,
 * descending); undefined when `query.after` names no run there (a cursor this store never gave).
 */
export const runList = defineServiceRead(function* (
  query: RunListQuery,
  { runs: source },
): SqlSteps<RunListEntry[] | undefined> {
  const { statuses, limit, after } = query;
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (after !== undefined) {
    const [known] = yield* all<{ found: number }>(
      `SELECT 1 AS found FROM (${source}) AS listed WHERE run_id = ? AND created_at = ?`,
      after.run_id,
      after.created_at,
    );
    if (known === undefined) return undefined;
    where.push("(created_at < ? OR (created_at = ? AND run_id < ?))");
    params.push(after.created_at, after.created_at, after.run_id);
  }
  if (statuses !== undefined) {
    where.push(`status IN (${statuses.map(() => "?").join(", ")})`);
    params.push(...statuses);
  }
  const rows = yield* all<RunListEntry>(
    `SELECT run_id, status, created_at, goal, current_stage FROM (${source}) AS listed
     ${where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`}
     ORDER BY created_at DESC, run_id DESC LIMIT ?`,
    ...params,
    limit,
  );
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at) }));
});
