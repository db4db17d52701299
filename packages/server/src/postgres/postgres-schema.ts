// The schema on PostgreSQL: the store's migrations (../sql/schema.ts) in one transaction,
// run once however many instances start together: the first to take the advisory lock migrates,
// the others wait for it and find nothing left to do.
import type { Sql } from "postgres";
import { migrations } from "../sql/schema.ts";
import { postgresSchema } from "./postgres-sql.ts";

/** The advisory lock the migrations hold (any number that no other application uses). */
const MIGRATION_LOCK = 0x7461_736b; // "task"

/** Brings the database's schema up to date; safe to call from many instances at once. */
export async function migratePostgres(sql: Sql): Promise<void> {
  await sql.begin(async (transaction) => {
    await transaction`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await transaction`CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)`;
    const [row] = await transaction<{ version: number | null }[]>`
      SELECT max(version) AS version FROM schema_version`;
    const current = Number(row?.version ?? 0);
    for (const [index, statements] of migrations.entries()) {
      const version = index + 1;
      if (version <= current) continue;
      for (const statement of statements) await transaction.unsafe(postgresSchema(statement));
      await transaction`INSERT INTO schema_version (version) VALUES (${version})`;
    }
  });
}
