import { describe, expect, it } from "vitest";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { claimRace, raceOrders, sqliteCommits } from "./claim-race.ts";
import { pollRace } from "./poll-race.ts";

describe("claim-next waiters and polls with wait racing offers, on SQLite in process", () => {
  for (const [commit, options] of Object.entries(sqliteCommits)) {
    for (const order of raceOrders) {
      it(`ends with one claim per offer, each waiter its own item, and every poll answered (${commit}, ${order})`, async () => {
        const database = openNodeDatabase(":memory:");
        const store = new SqlStore(database, options);
        try {
          for (let round = 0; round < 5; round++) {
            const { claimed, offered } = await claimRace([store], 20, order);
            expect(claimed).toEqual(offered);
            expect(await pollRace([store], 20, order)).toBe(20);
          }
        } finally {
          store.close();
          database.close();
        }
      });
    }
  }
});
