import { listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { ArgumentError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { DeliveryError } from "../../src/delivery/delivery-error.ts";
import { newAgentToken, newId } from "../../src/delivery/ids.ts";
import { DurableObjectStore } from "../../src/workers/durable-object-store.ts";
import { Client, createRun, runInput, taskStage } from "../contract/client.ts";
import { adminToken, onWorkers, runObject } from "./services.ts";

/** The tables of a run's object, read inside it. */
const tablesOf = (runId: string) =>
  runInDurableObject(runObject(runId), (_, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .toArray()
      .map((row) => row.name),
  );

describe("one Durable Object per run", () => {
  it("a run lives in the object its id names, with its tables", async () => {
    const service = await onWorkers();
    const { run } = await createRun(service, runInput([taskStage("draft")]));
    expect(await tablesOf(run.run_id)).toContain("runs");
    const rows = await runInDurableObject(runObject(run.run_id), (_, state) =>
      state.storage.sql.exec("SELECT id, status FROM runs").toArray(),
    );
    expect(rows).toEqual([{ id: run.run_id, status: "active" }]);
  });

  it("a malformed run id or agent token reaches no object", async () => {
    const service = await onWorkers();
    const before = (await listDurableObjectIds(env.RUNS)).length;
    const admin = new Client(service, adminToken);
    for (const runId of ["not-a-run", "run_", `run_${"Z".repeat(26)}`, "x".repeat(5000)]) {
      const answer = await admin.getRun(encodeURIComponent(runId));
      expect([answer.status, answer.error?.code]).toEqual([404, "RUN_NOT_FOUND"]);
    }
    for (const token of ["tc_nothing", `tc_run_${"!".repeat(26)}_agt_x_y`, "tc_run_x_agt_y_z"]) {
      expect((await new Client(service, token).poll()).status).toBe(401);
    }
    expect(await listDurableObjectIds(env.RUNS)).toHaveLength(before);
  });

  it("an unknown run id, in a path or an agent token, creates no tables", async () => {
    const service = await onWorkers();
    const missing = newId("run");
    const admin = new Client(service, adminToken);
    expect((await admin.getRun(missing)).status).toBe(404);
    expect((await admin.events(missing)).status).toBe(404);
    expect((await admin.addAgent(missing, "worker")).status).toBe(404);
    const forged = new Client(service, newAgentToken(missing, newId("agt")));
    expect((await forged.poll()).status).toBe(401);
    expect(await tablesOf(missing)).toEqual([]);
    // Nothing written: its storage is that of an object nobody ever called.
    const size = (runId: string) =>
      runInDurableObject(runObject(runId), (_, state) => state.storage.sql.databaseSize);
    expect(await size(missing)).toBe(await size(newId("run")));
  });

  it("a run refused for its stage graph leaves no tables in its object", async () => {
    const service = await onWorkers();
    const store = new DurableObjectStore(env.RUNS);
    const runId = newId("run");
    const refused = store.createRun(runId, runInput([taskStage("a"), taskStage("a")]));
    await expect(refused).rejects.toMatchObject({ code: "INVALID_STAGES" });
    expect(await tablesOf(runId)).toEqual([]);
    expect(service.adminToken).toBe(adminToken);
  });
});

describe("errors across Workers RPC", () => {
  const store = new DurableObjectStore(env.RUNS);

  it("a refusal in the object is a DeliveryError again on the router's side", async () => {
    const runId = newId("run");
    const error = await store.getRun(runId).catch((caught: unknown) => caught);
    expect(DeliveryError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({
      name: "DeliveryError",
      code: "RUN_NOT_FOUND",
      status: 404,
      message: `No run ${runId}. Check the run id (and that your token belongs to that run).`,
    });
  });

  it("its issues come along", async () => {
    const refused = store.createRun(
      newId("run"),
      runInput([{ ...taskStage("review"), kind: "review", reviews: "nothing" }]),
    );
    await expect(refused).rejects.toMatchObject({
      code: "INVALID_STAGES",
      status: 400,
      issues: [
        {
          path: "/stages/0/review_criteria",
          message:
            'stages[0] is a review stage: give it review_criteria, what reviewers judge (e.g. ["logic", "readability"]).',
        },
        {
          path: "/stages/0/reviews",
          message:
            'stages[0].reviews "nothing" is not an earlier stage. Name an earlier task stage.',
        },
      ],
    });
  });

  it("an unexpected error is not turned into a DeliveryError (it becomes a 500)", async () => {
    const runId = newId("run");
    await store.createRun(runId, runInput([taskStage("draft")]));
    // Called inside the object: over RPC, workerd would also log it as uncaught.
    const error = await runInDurableObject(runObject(runId), (instance) =>
      instance.createRun(runId, runInput([taskStage("draft")])).catch((caught: unknown) => caught),
    );
    expect(DeliveryError.isInstance(error)).toBe(false);
    expect(error).toBeInstanceOf(ArgumentError);
    expect(error).toMatchObject({
      message: `Invalid runId: expected the id of a new run, got ${runId}: its object already holds a run.`,
    });
  });
});
