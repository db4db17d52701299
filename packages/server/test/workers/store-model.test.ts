// The Durable Object's store (SqlStore over the object's SQLite storage) against the state machine
// alone, model-based (test/model/store-model.ts), inside workerd: a crash puts a new store over
// the same storage. MODEL_RUNS is not read here (no process): the default number of sequences.
import { runInDurableObject } from "cloudflare:test";
import { describe, it } from "vitest";
import { newId } from "../../src/delivery/ids.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { durableObjectSql } from "../../src/workers/durable-object-sql.ts";
import { checkStoreAgainstModel } from "../model/store-model.ts";
import { runObject } from "./services.ts";

describe("the Durable Object's store, model-based", () => {
  it("answers and appends events as the state machine alone does, across new stores", async () => {
    await runInDurableObject(runObject(newId("run")), async (_, state) => {
      const database = durableObjectSql(state.storage);
      await checkStoreAgainstModel(
        async (clock) => {
          let store = new SqlStore(database, { clock });
          return {
            get store() {
              return store;
            },
            async crash() {
              store.close();
              store = new SqlStore(database, { clock });
            },
            async close() {
              store.close();
            },
          };
        },
        { numRuns: 30 },
      );
    });
  });
});
