// The background duties on Node over a real SQLite store, with fake timers and the store's clock
// moved by hand: a run's timer expires its lease at the expiry, and a store error in that round
// reaches onError (never an unhandled rejection) and is tried again a second later.
import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "../delivery/ids.ts";
import { openNodeDatabase } from "../node-sqlite.ts";
import { SqlStore } from "../sql/sql-store.ts";
import { startNodeDuties } from "./node-duties.ts";

const LEASE_MS = 5000;
const input = {
  goal: "g",
  constraints: [],
  lease_ms: LEASE_MS,
  stages: [{ id: "s", stage_description: "d", expected_output: "o", available_skills: [] }],
};

afterEach(() => {
  vi.useRealTimers();
});

describe("the background duties on Node", () => {
  it("expire a lease at its expiry by a timer; a store error there is told and the round tried again", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    let now = 1_000_000;
    const clock = () => now;
    const database = openNodeDatabase(":memory:");
    const store = new SqlStore(database, { clock });
    const errors: unknown[] = [];
    // No sweep within the test: only the run's timer wakes it.
    const duties = startNodeDuties({
      store,
      clock,
      sweepMs: 3_600_000,
      a2a: {},
      onError: (error) => errors.push(error),
    });
    const runId = newId("run");
    await store.createRun(runId, input);
    const agent = { agent_id: newId("agt"), tag: "worker" };
    await store.addAgent(runId, { ...agent, token_hash: "h" });
    await store.claim(runId, agent, undefined);
    // A real SQLite error, raised whenever a work item is written.
    database.exec(
      "CREATE TRIGGER broken BEFORE UPDATE ON work_items BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
    );
    // The events as stored (a query through the store would expire the lease itself).
    const types = () =>
      database
        .all<{ body: string }>("SELECT body FROM events ORDER BY seq")
        .map((row) => (JSON.parse(row.body) as { type: string }).type);
    now += LEASE_MS;
    await vi.advanceTimersByTimeAsync(LEASE_MS);
    expect((errors as Error[]).map((error) => error.message)).toEqual(["disk I/O error"]);
    database.exec("DROP TRIGGER broken");
    expect(types()).not.toContain("work_item.lease_expired");
    now += 999;
    await vi.advanceTimersByTimeAsync(999);
    expect(types()).not.toContain("work_item.lease_expired");
    now += 1;
    await vi.advanceTimersByTimeAsync(1);
    expect(types().slice(-2)).toEqual(["work_item.lease_expired", "work_item.offered"]);
    expect(errors).toHaveLength(1);
    await duties.close();
    database.close();
  });
});
