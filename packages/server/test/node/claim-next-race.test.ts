import { describe, expect, it } from "vitest";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore, type SqlStoreOptions } from "../../src/sql/sql-store.ts";
import { claimRace, type RaceOrder } from "./claim-race.ts";

const orders: RaceOrder[] = ["waiters first", "offers first", "interleaved"];
const commits: Record<string, SqlStoreOptions> = {
  // As on Node: the operations of one turn of the event loop commit together.
  "group commit": { schedule: (flush) => setImmediate(flush) },
  // As in a Durable Object: each operation commits at once, synchronously.
  "each on its own": {},
};

describe("claim-next waiters and offers racing, on SQLite in process", () => {
  for (const [commit, options] of Object.entries(commits)) {
    for (const order of orders) {
      it(`ends with one claim per offer, each waiter its own item (${commit}, ${order})`, async () => {
        const database = openNodeDatabase(":memory:");
        const store = new SqlStore(database, options);
        try {
          for (let round = 0; round < 5; round++) {
            const { claimed, offered } = await claimRace([store], 20, order);
            expect(claimed).toEqual(offered);
          }
        } finally {
          store.close();
          database.close();
        }
      });
    }
  }
});
