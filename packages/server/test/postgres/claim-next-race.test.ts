// The waits across instances: each instance keeps its own claim-next line and watches of offers,
// woken by the other's commits through LISTEN/NOTIFY; N waiters and N offers spread over two
// instances (or all offers on the other) must end with N claims, each waiter its own item, and N
// polls with wait must all answer with an offer.
import { describe, expect, it } from "vitest";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import { claimRace, raceOrders } from "../node/claim-race.ts";
import { pollRace } from "../node/poll-race.ts";
import { newDatabase, reason, title } from "./services.ts";

describe.skipIf(reason !== undefined)(title("waits on two PostgreSQL instances"), () => {
  for (const order of raceOrders) {
    it(`ends with one claim per offer, each waiter its own item, and every poll answered (${order})`, async () => {
      const database = await newDatabase();
      const stores = [
        await PostgresStore.open(database.url),
        await PostgresStore.open(database.url),
      ];
      // Every offer from the other instance: known only through its notifications.
      const [here, there] = [stores.slice(0, 1), stores.slice(1)];
      try {
        for (let round = 0; round < 2; round++) {
          const { claimed, offered } = await claimRace(stores, 20, order);
          expect(claimed).toEqual(offered);
          const across = await claimRace(here, 20, order, there);
          expect(across.claimed).toEqual(across.offered);
          expect(await pollRace(stores, 20, order)).toBe(20);
          expect(await pollRace(here, 20, order, there)).toBe(20);
        }
      } finally {
        for (const store of stores) await store.end();
        await database.drop();
      }
    });
  }
});
