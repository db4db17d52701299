// The store's reads by name (DeliveryStore.query, the registry src/sql/reads.ts): a read of one
// run runs on that run's state, a read across runs on every run, and a read asked of the wrong
// scope is refused with what to do.
import { describe, expect, it } from "vitest";
import { newId } from "../../src/delivery/ids.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { reads } from "../../src/sql/reads.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { runInput, taskStage } from "../contract/client.ts";

describe("the store's reads", () => {
  it("each read one run or across runs (a new read's file needs no line here)", () => {
    for (const [name, read] of Object.entries(reads)) {
      expect(["run", "service"], name).toContain(read.scope);
    }
    expect([reads.agentList.scope, reads.runList.scope]).toEqual(["run", "service"]);
  });

  it("run a read of one run on it, and across runs on all, by name", async () => {
    const database = openNodeDatabase(":memory:");
    const store = new SqlStore(database, { clock: () => 1_000 });
    try {
      const runId = newId("run");
      await store.createRun(runId, runInput([taskStage("draft")]));
      const agent = { agent_id: newId("agt"), tag: "writer", token_hash: "0".repeat(64) };
      await store.addAgent(runId, agent);
      expect(await store.query("agentList", runId, { failures: 5 })).toEqual([
        { agent_id: agent.agent_id, tag: "writer", stages: ["draft"] },
      ]);
      const listed = await store.query("runList", undefined, {
        statuses: undefined,
        limit: 10,
        after: undefined,
      });
      expect(listed?.map((entry) => [entry.run_id, entry.status, entry.current_stage])).toEqual([
        [runId, "active", "draft"],
      ]);
      await expect(store.query("agentList", newId("run"), { failures: 5 })).rejects.toMatchObject({
        code: "RUN_NOT_FOUND",
      });
    } finally {
      store.close();
      database.close();
    }
  });

  it("refuse a read of one run without the run's id", async () => {
    const database = openNodeDatabase(":memory:");
    const store = new SqlStore(database);
    try {
      await expect(store.query("agentList", undefined as never, { failures: 5 })).rejects.toThrow(
        "runId: expected the run id the read agentList reads, got undefined.",
      );
    } finally {
      store.close();
      database.close();
    }
  });
});
