// Node-only: the ways the contract suites reach the service on Node — in process through
// app.request, and over a real socket (a server on 127.0.0.1:0) — with real SQLite.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { startNodeServer } from "../../src/node.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { limitsOf, manualClock, type Service, type StartService } from "../contract/harness.ts";

export { manualClock } from "../contract/harness.ts";

const adminToken = "test-admin-token-0123456789abcdef";

/** The app in process (`app.request`), on an in-memory SQLite database. */
export const inProcess: StartService = async (options = {}) => {
  const clock = manualClock();
  const database = openNodeDatabase(":memory:");
  // Group commit, as on Node: the requests of one turn of the event loop share a transaction.
  const store = new SqlStore(database, { clock: clock.now, schedule: setImmediate });
  const shutdown = new AbortController();
  const app = createApp({
    store,
    auth: { adminToken },
    limits: limitsOf(options),
    clock: clock.now,
    // One documentation address stands for the client's (app.request has no socket).
    clientAddress: () => "192.0.2.1",
    signal: shutdown.signal,
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
  });
  return {
    baseUrl: "http://service.test",
    adminToken,
    fetch: async (url, init) => app.request(url, init),
    async advance(milliseconds) {
      clock.advance(milliseconds);
    },
    async stop() {
      shutdown.abort();
      store.close();
      database.close();
    },
  } satisfies Service;
};

/** A temporary folder, removed by the returned function. */
export function temporaryFolder(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "task-context-edge-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The Node server over a real socket on 127.0.0.1:0, with an SQLite file. */
export const overSocket: StartService = async (options = {}) => {
  const clock = manualClock();
  const folder = temporaryFolder();
  const server = await startNodeServer({
    port: 0,
    host: "127.0.0.1",
    database: join(folder.path, "edge.db"),
    adminToken,
    limits: limitsOf(options),
    clock: clock.now,
    sweepMs: 10,
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
  });
  return {
    baseUrl: server.url,
    adminToken,
    fetch: (url, init) => fetch(url, init),
    async advance(milliseconds) {
      clock.advance(milliseconds);
    },
    async stop() {
      await server.close();
      folder.remove();
    },
  } satisfies Service;
};
