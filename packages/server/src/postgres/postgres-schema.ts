// The schema on PostgreSQL: the store's migrations (../sql/schema.ts), then PostgreSQL's own, in
// one transaction, run once however many instances start together: the first to take the advisory
// lock migrates, the others wait for it and find nothing left to do.
import type { Sql, TransactionSql } from "postgres";
import { migrations } from "../sql/schema.ts";
import { postgresSchema } from "./postgres-sql.ts";

/** The advisory lock the migrations hold (any number that no other application uses). */
const MIGRATION_LOCK = 0x7461_736b; // "task"

/**
 * PostgreSQL's own migrations (after the shared ones; counted in `postgres_schema_version`), one
 * list of statements each. Append; never edit one that has shipped.
 */
export const postgresMigrations: readonly (readonly string[])[] = [
  // 1: every row of a run's state carries the run version that last wrote it, so that an
  // instance whose copy of the run is stale reads only the rows written since (several instances
  // serve one run). The rows already there keep 0: an instance that starts has no copy.
  ["work_items", "agents", "artifacts", "idempotency_keys"].flatMap((table) => [
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS version BIGINT NOT NULL DEFAULT 0`,
    `CREATE INDEX IF NOT EXISTS ${table}_by_version ON ${table} (run_id, version)`,
  ]),
];

/** Brings the database's schema up to date; safe to call from many instances at once. */
export async function migratePostgres(sql: Sql): Promise<void> {
  await sql.begin(async (transaction) => {
    await transaction`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await applyMigrations(
      transaction,
      "schema_version",
      migrations.map((statements) => statements.map(postgresSchema)),
    );
    await applyMigrations(transaction, "postgres_schema_version", postgresMigrations);
  });
}

/** Applies the migrations of `list` that `table` (their versions) does not count yet. */
async function applyMigrations(
  transaction: TransactionSql,
  table: string,
  list: readonly (readonly string[])[],
): Promise<void> {
  await transaction.unsafe(`CREATE TABLE IF NOT EXISTS ${table} (version BIGINT NOT NULL)`);
  const [row] = await transaction.unsafe<{ version: number | null }[]>(
    `SELECT max(version) AS version FROM ${table}`,
  );
  const current = Number(row?.version ?? 0);
  for (const [index, statements] of list.entries()) {
    const version = index + 1;
    if (version <= current) continue;
    for (const statement of statements) await transaction.unsafe(statement);
    await transaction.unsafe(`INSERT INTO ${table} (version) VALUES ($1)`, [version]);
  }
}
