import { afterAll, describe, expect, it } from "vitest";
import { newId } from "../delivery/ids.ts";
import { nextLeaseExpiry } from "../delivery/machine/run-state.ts";
import { openNodeDatabase } from "../node-sqlite.ts";
import { migrations } from "./schema.ts";
import { SqlStore } from "./sql-store.ts";

const input = {
  goal: "g",
  constraints: [],
  stages: [{ id: "s", stage_description: "d", expected_output: "o", available_skills: [] }],
};

describe("SqlStore", () => {
  const database = openNodeDatabase(":memory:");
  afterAll(() => database.close());

  it("refuses to create a run under an id that exists, and writes nothing", async () => {
    const store = new SqlStore(database);
    const runId = newId("run");
    await store.createRun(runId, input);
    const before = await store.events(runId, 0, 100);
    await expect(store.createRun(runId, input)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      argument: "runId",
    });
    expect(await store.events(runId, 0, 100)).toEqual(before);
  });

  it("rejects with RUN_NOT_FOUND (404) for a run it does not hold", async () => {
    const store = new SqlStore(database);
    await expect(store.getRun("run_missing")).rejects.toMatchObject({
      code: "RUN_NOT_FOUND",
      status: 404,
    });
    await expect(store.lastSeq("run_missing")).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
  });

  it("migrates a database once: a second store on it finds the runs of the first", async () => {
    const first = new SqlStore(database);
    const runId = newId("run");
    await first.createRun(runId, input);
    const second = new SqlStore(database);
    expect((await second.getRun(runId)).run_id).toBe(runId);
  });

  it("adds the runs' trace context to a database of the first schema; its items carry it", async () => {
    const older = openNodeDatabase(":memory:");
    older.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    for (const statement of migrations[0] ?? []) older.exec(statement);
    older.run("INSERT INTO schema_version (version) VALUES (1)");
    const store = new SqlStore(older);
    const traceContext = {
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      tracestate: "vendor=opaque",
    };
    const traced = newId("run");
    await store.createRun(traced, input, { traceContext });
    const plain = newId("run");
    await store.createRun(plain, input);
    const agent = { agent_id: newId("agt"), tag: "b" };

    expect(older.all("SELECT max(version) AS version FROM schema_version")).toEqual([
      { version: migrations.length },
    ]);
    const [offered] = await store.offers(traced, agent, 1);
    expect(offered?.trace_context).toStrictEqual(traceContext);
    const [untraced] = await store.offers(plain, agent, 1);
    expect(untraced).toBeDefined();
    expect(untraced).not.toHaveProperty("trace_context");
    older.close();
  });

  it("tells its listener of each run a commit changed, with the state as committed; not of reads or refusals", async () => {
    let now = 1_000_000;
    const store = new SqlStore(database, { clock: () => now });
    const told: Array<[string, number | undefined]> = [];
    store.onRunChanged((runId, state) => told.push([runId, nextLeaseExpiry(state)]));
    const runId = newId("run");
    await store.createRun(runId, { ...input, lease_ms: 5000 });
    const agent = { agent_id: newId("agt"), tag: "b" };
    await store.addAgent(runId, { ...agent, token_hash: "h" });
    await store.claim(runId, agent, undefined);
    await store.getRun(runId);
    expect(await store.claim(runId, agent, undefined)).toBeUndefined();
    await expect(store.claim(runId, agent, "wi_missing")).rejects.toThrow(/wi_missing/);
    expect(told).toEqual([
      [runId, undefined],
      [runId, undefined],
      [runId, 1_005_000],
    ]);
    now += 5000;
    // The overdue lease expires as the run's state is read: a change.
    expect(nextLeaseExpiry(await store.runState(runId))).toBeUndefined();
    expect(told.at(-1)).toEqual([runId, undefined]);
    expect(told).toHaveLength(4);
    store.onRunChanged(undefined);
    expect(await store.claim(runId, agent, undefined)).toBeDefined();
    expect(told).toHaveLength(4);
  });
});
