// Node-only: the ways the contract suites reach the service on Node — in process through
// app.request, and over a real socket (a server on 127.0.0.1:0) — with real SQLite.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import type { DeliveryStore } from "../../src/delivery/delivery-store.ts";
import { type NodeServerOptions, startNodeServer } from "../../src/node.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { limitsOf, manualClock, type Service, type StartService } from "../contract/harness.ts";

export { manualClock } from "../contract/harness.ts";

const adminToken = "test-admin-token-0123456789abcdef";

/** A store for one service, and how it closes once the service has stopped. */
export interface TestStore {
  store: DeliveryStore;
  close(): Promise<void>;
}

/** The app in process (`app.request`), on the store `open` makes with the service's clock. */
export function inProcessOn(open: (clock: () => number) => Promise<TestStore>): StartService {
  return async (options = {}) => {
    const clock = manualClock();
    const { store, close } = await open(clock.now);
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
        await close();
      },
    } satisfies Service;
  };
}

/** The app in process (`app.request`), on an in-memory SQLite database. */
export const inProcess: StartService = inProcessOn(async (clock) => {
  const database = openNodeDatabase(":memory:");
  // Group commit, as on Node: the requests of one turn of the event loop share a transaction.
  const store = new SqlStore(database, { clock, schedule: setImmediate });
  return {
    store,
    async close() {
      store.close();
      database.close();
    },
  };
});

/** A temporary folder, removed by the returned function. */
export function temporaryFolder(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "task-context-edge-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Where a Node server keeps its runs, and how that is removed once it has stopped. */
export interface TestStorage {
  options: Pick<NodeServerOptions, "database" | "databaseUrl">;
  remove(): Promise<void>;
}

/** The Node server over a real socket on 127.0.0.1:0, on the storage `make` makes. */
export function overSocketOn(make: () => Promise<TestStorage>): StartService {
  return async (options = {}) => {
    const clock = manualClock();
    const storage = await make();
    const server = await startNodeServer({
      port: 0,
      host: "127.0.0.1",
      ...storage.options,
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
        await storage.remove();
      },
    } satisfies Service;
  };
}

/** The Node server over a real socket on 127.0.0.1:0, with an SQLite file. */
export const overSocket: StartService = overSocketOn(async () => {
  const folder = temporaryFolder();
  return {
    options: { database: join(folder.path, "edge.db") },
    remove: async () => folder.remove(),
  };
});
