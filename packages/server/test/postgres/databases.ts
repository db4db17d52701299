// New, empty databases on a PostgreSQL server, each dropped when done: for tests (services.ts)
// and benchmarks alike, so no test framework here.
import postgres from "postgres";
import { newId } from "../../src/delivery/ids.ts";

/** A database of its own: its URL (the server's user and password), and how to drop it. */
export interface Database {
  url: string;
  drop(): Promise<void>;
}

/** Creates a new, empty database on the server at `serverUrl` (a superuser's URL). */
export async function createDatabase(serverUrl: string): Promise<Database> {
  const name = newId("run").replace("run_", "tc_");
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return {
    url: target.href,
    async drop() {
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/**
 * Makes the database at `url` refuse every artifact written from now on with a real PostgreSQL
 * error (a trigger raising "the artifact store is full").
 */
export async function refuseArtifacts(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`
      CREATE FUNCTION refuse_artifacts() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'the artifact store is full'; END $$;
      CREATE TRIGGER store_full BEFORE INSERT ON artifacts
        FOR EACH ROW EXECUTE FUNCTION refuse_artifacts();
    `);
  } finally {
    await sql.end();
  }
}
