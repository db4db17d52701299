import { describe, expect, it, vi } from "vitest";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { heldRun, sqliteCommits } from "./claim-race.ts";
import { pollForever } from "./poll-race.ts";

describe("poll with wait on SQLite in process", () => {
  for (const [commit, options] of Object.entries(sqliteCommits)) {
    it(`looks at the run again only for a change that offers the agent something (${commit})`, async () => {
      const database = openNodeDatabase(":memory:");
      const store = new SqlStore(database, options);
      try {
        const { runId, holder, held, addAgent } = await heldRun(store, 2);
        const poller = await addAgent("poller");
        const looks = vi.spyOn(store, "offers");
        const poll = pollForever(store, runId, poller);
        await vi.waitFor(() => expect(looks).toHaveBeenCalledTimes(1));
        await looks.mock.results[0]?.value;
        // An event that offers nothing: the holder completes its first item.
        const [first, second] = held as [(typeof held)[0], (typeof held)[0]];
        await store.complete(runId, holder, first.id, {
          attempt: first.attempt,
          artifact: { media_type: "text/plain", content: "done" },
        });
        expect(looks).toHaveBeenCalledTimes(1);
        await store.fail(runId, holder, second.id, { attempt: second.attempt, reason: "again" });
        expect((await poll).map((item) => item.id)).toEqual([second.id]);
        expect(looks).toHaveBeenCalledTimes(2);
      } finally {
        store.close();
        database.close();
      }
    });
  }
});
