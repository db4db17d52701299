import { describe, expect, it } from "vitest";
import { newId } from "../delivery/ids.ts";
import { openNodeDatabase } from "../node-sqlite.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { SqlStore } from "./sql-store.ts";

/** A database that remembers every statement sent to it. */
function recording(database: SqlDatabase) {
  const statements = new Set<string>();
  const recorded: SqlDatabase = {
    exec: (sql) => database.exec(sql),
    run: (sql, ...params) => {
      statements.add(sql);
      return database.run(sql, ...params);
    },
    all: (sql, ...params) => {
      statements.add(sql);
      return database.all(sql, ...params);
    },
    transaction: (fn) => database.transaction(fn),
  };
  return { recorded, statements };
}

describe("the store's queries", () => {
  it("read no work item for an agent's request once the run's state is kept; each write finds its row by key", async () => {
    const database = openNodeDatabase(":memory:");
    const { recorded, statements } = recording(database);
    const store = new SqlStore(recorded);
    const runId = newId("run");
    await store.createRun(runId, {
      goal: "g",
      constraints: [],
      stages: [
        { id: "s", stage_description: "d", expected_output: "o", available_skills: [], items: 3 },
      ],
      lease_ms: 1000,
      max_attempts: 2,
    });
    const agent = { agent_id: "agt_1", tag: "a" };
    await store.addAgent(runId, { ...agent, token_hash: "h" });
    statements.clear();
    await store.offers(runId, agent, 10);
    const first = await store.claim(runId, agent, undefined);
    const id = first?.work_item.id ?? "";
    await store.heartbeat(runId, agent, id, 1);
    await store.fail(runId, agent, id, { attempt: 1, reason: "r" });
    for (let index = 0; index < 3; index++) {
      const claim = await store.claim(runId, agent, undefined);
      await store.complete(runId, agent, claim?.work_item.id ?? "", {
        attempt: claim?.lease.attempt ?? 0,
        artifact: { media_type: "text/plain", content: "done" },
      });
    }

    const touching = [...statements].filter((sql) => /\bwork_items\b/.test(sql));
    // The run's state was loaded by createRun's transaction and kept: only writes are left.
    expect(touching.filter((sql) => /^\s*SELECT/i.test(sql))).toEqual([]);
    expect(touching.length).toBeGreaterThan(0);
    for (const sql of [...statements].filter((sql) => /^\s*(UPDATE|SELECT)/i.test(sql))) {
      const parameters = Array.from(sql.match(/\?/g) ?? [], () => null);
      const plan = database
        .all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...parameters)
        .map((row) => row.detail)
        .join("; ");
      // No table read whole, nor every row of the run.
      expect(plan, sql).not.toMatch(/SCAN \w+|USING (COVERING )?INDEX \S+ \(run_id=\?\)/);
    }
    database.close();
  });
});
