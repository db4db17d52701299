// The ways the contract suites reach the service on PostgreSQL: in process (app.request) and
// over a socket (startNodeServer with a database URL), each on a new database of one throwaway
// PostgreSQL server (scripts/postgres.mjs). Where PostgreSQL cannot be started here, `reason` says
// why in one line and the suites that need it are skipped by name.
import { afterAll } from "vitest";
import { findPostgres, type Postgres, startPostgres } from "../../../../scripts/postgres.mjs";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import type { StartService } from "../contract/harness.ts";
import { inProcessOn, overSocketOn } from "../node/services.ts";
import { createDatabase, type Database } from "./databases.ts";

const found = await findPostgres();
/** Why PostgreSQL cannot be started here, or undefined when it can. */
export const reason = "reason" in found ? found.reason : undefined;

/** `name`, or `name` with the reason it is skipped. */
export const title = (name: string) =>
  reason === undefined ? name : `${name} (skipped: PostgreSQL cannot be started here: ${reason})`;

let server: Promise<Postgres> | undefined;
afterAll(async () => {
  if (server !== undefined) await (await server).stop();
});

/** This file's PostgreSQL server (started on first use). */
export function postgresServer(): Promise<Postgres> {
  server ??= startPostgres({ settings: { max_connections: 300 } });
  return server;
}

/** A new, empty database on this file's PostgreSQL server (started on first use): its URL. */
export async function newDatabase(): Promise<Database> {
  return createDatabase((await postgresServer()).url);
}

/** The app in process (`app.request`) on a PostgresStore. */
export const inProcessOnPostgres: StartService = inProcessOn(async (clock) => {
  const database = await newDatabase();
  const store = await PostgresStore.open(database.url, { clock });
  return {
    store,
    async close() {
      await store.end();
      await database.drop();
    },
  };
});

/** The Node server over a real socket on 127.0.0.1:0, on PostgreSQL. */
export const overSocketOnPostgres: StartService = overSocketOn(async () => {
  const database = await newDatabase();
  return { options: { databaseUrl: database.url }, remove: database.drop };
});
