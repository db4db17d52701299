// The PostgreSQL store against the state machine alone, model-based (test/model/store-model.ts),
// with two instances on one database: a crash goes on with the other instance, whose states kept
// in memory are now behind the database (each must be found stale by the run's version and read
// again). MODEL_RUNS=<n> runs more sequences than the default.
import { describe, it } from "vitest";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import { checkStoreAgainstModel } from "../model/store-model.ts";
import { newDatabase, reason, title } from "./services.ts";

const numRuns = Number(process.env.MODEL_RUNS ?? 10);

describe.skipIf(reason !== undefined)(title("the PostgreSQL store, model-based"), () => {
  it("answers and appends events as the state machine alone does, across instances", async () => {
    const database = await newDatabase();
    let clock = () => 0;
    const instances = await Promise.all(
      [0, 1].map(() => PostgresStore.open(database.url, { clock: () => clock() })),
    );
    try {
      await checkStoreAgainstModel(
        async (sequenceClock) => {
          clock = sequenceClock;
          let current = 0;
          return {
            get store() {
              return instances[current] as PostgresStore;
            },
            async crash() {
              current = 1 - current;
            },
            async close() {},
          };
        },
        { numRuns },
      );
    } finally {
      await Promise.all(instances.map((instance) => instance.end()));
      await database.drop();
    }
  });
});
