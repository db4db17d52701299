// The SQLite store against the state machine alone, model-based (test/model/store-model.ts): a
// crash closes the database file and opens it again under a new store. MODEL_RUNS=<n> runs more
// sequences than the default.
import { join } from "node:path";
import { describe, it } from "vitest";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { checkStoreAgainstModel } from "../model/store-model.ts";
import { temporaryFolder } from "./services.ts";

const numRuns = Number(process.env.MODEL_RUNS ?? 30);

describe("the SQLite store, model-based", () => {
  it("answers and appends events as the state machine alone does, across crashes", async () => {
    await checkStoreAgainstModel(
      async (clock) => {
        const folder = temporaryFolder();
        const path = join(folder.path, "model.db");
        const open = () => {
          const database = openNodeDatabase(path);
          return { database, store: new SqlStore(database, { clock, schedule: setImmediate }) };
        };
        let opened = open();
        return {
          get store() {
            return opened.store;
          },
          async crash() {
            opened.database.close();
            opened = open();
          },
          async close() {
            opened.store.close();
            opened.database.close();
            folder.remove();
          },
        };
      },
      { numRuns },
    );
  });
});
