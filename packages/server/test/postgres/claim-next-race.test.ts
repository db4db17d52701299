// The claim-next line across instances: each instance keeps its own line, woken by the other's
// commits through LISTEN/NOTIFY; N waiters and N offers spread over two instances must end with
// N claims, each waiter its own item.
import { describe, expect, it } from "vitest";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import { claimRace, type RaceOrder } from "../node/claim-race.ts";
import { newDatabase, reason, title } from "./services.ts";

const orders: RaceOrder[] = ["waiters first", "offers first", "interleaved"];

describe.skipIf(reason !== undefined)(title("claim-next on two PostgreSQL instances"), () => {
  for (const order of orders) {
    it(`ends with one claim per offer, each waiter its own item (${order})`, async () => {
      const database = await newDatabase();
      const stores = [
        await PostgresStore.open(database.url),
        await PostgresStore.open(database.url),
      ];
      try {
        for (let round = 0; round < 3; round++) {
          const { claimed, offered } = await claimRace(stores, 20, order);
          expect(claimed).toEqual(offered);
        }
      } finally {
        for (const store of stores) await store.end();
        await database.drop();
      }
    });
  }
});
