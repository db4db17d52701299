/**
 * The delivery store on PostgreSQL, for any number of Node instances on one database: the same
 * operations and rules as the SQLite store, each operation one transaction that locks its run's
 * row, commits announced to every instance with LISTEN/NOTIFY. Its own entry, so that SQLite and
 * Workers users never load a PostgreSQL driver; `startNodeServer({ databaseUrl })` and
 * `TASK_CONTEXT_DATABASE_URL` select it on Node.
 *
 * ```ts source="../examples/postgres-store.ts#PostgresStore"
 * const store = await PostgresStore.open(process.env.TASK_CONTEXT_DATABASE_URL ?? "", {
 *   maxConnections: 10,
 * });
 * const adminToken = process.env.TASK_CONTEXT_ADMIN_TOKEN ?? "a-long-random-secret-0123456789";
 * const app = createApp({ store, auth: { adminToken } });
 * ```
 *
 * @module
 */
export { migratePostgres } from "./postgres/postgres-schema.ts";
export { PostgresStore, type PostgresStoreOptions } from "./postgres/postgres-store.ts";
