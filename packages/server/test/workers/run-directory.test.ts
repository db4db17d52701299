// The runs directory on workerd: each run's object reports its run (created, a new status or
// stage); a report that fails is retried from the object's alarm until it gets through; a Worker
// without the RUN_DIRECTORY binding answers GET /v1/runs with 503 naming it, and the rest as
// before.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { RunList } from "@task-context/client";
import { describe, expect, it } from "vitest";
import { DurableObjectStore } from "../../src/workers/durable-object-store.ts";
import { RUN_DIRECTORY_NAME } from "../../src/workers/run-directory.ts";
import { artifactCompletion, Client, createRun, runInput, taskStage } from "../contract/client.ts";
import type { RunDirectory } from "./entry.ts";
import { runObject, workersService } from "./services.ts";

const directories = env.RUN_DIRECTORY as unknown as DurableObjectNamespace<RunDirectory>;
const directory = () => directories.get(directories.idFromName(RUN_DIRECTORY_NAME));

/** The runs directory's ids, newest first, as GET /v1/runs answers them. */
async function listedIds(admin: Client): Promise<string[]> {
  const page = await admin.get<RunList>("/v1/runs", { query: { limit: 200 } });
  expect(page.status).toBe(200);
  return page.body.runs.map((run) => run.run_id);
}

describe("the runs directory", () => {
  it("lists a run as it is created and follows its status and stage", async () => {
    const service = await workersService();
    const { run, admin, agent } = await createRun(
      service,
      runInput([taskStage("draft"), taskStage("polish")]),
    );
    const summary = async () =>
      (await admin.get<RunList>("/v1/runs", { query: { limit: 200 } })).body.runs.find(
        (listed) => listed.run_id === run.run_id,
      );
    expect(await summary()).toMatchObject({ status: "active", current_stage: "draft" });
    const worker = await agent("worker");
    for (let stage = 0; stage < 2; stage += 1) {
      const claimed = await worker.claimNext();
      await worker.complete(claimed.body.work_item.id, artifactCompletion(1));
      if (stage === 0) {
        expect(await summary()).toMatchObject({ status: "active", current_stage: "polish" });
      }
    }
    expect(await summary()).toMatchObject({ status: "completed", current_stage: null });
  });

  it("a report that failed is retried from the run object's alarm", async () => {
    const service = await workersService();
    const admin = new Client(service, service.adminToken);
    await directory().refuseReports(1);
    const { run } = await createRun(service, runInput([taskStage("draft")]));
    expect(await listedIds(admin)).not.toContain(run.run_id);
    // The object set its alarm for the retry; it runs now.
    const alarm = await runInDurableObject(runObject(run.run_id), (_, state) =>
      state.storage.getAlarm(),
    );
    expect(alarm).not.toBeNull();
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    expect(await listedIds(admin)).toContain(run.run_id);
    // Reported: no alarm is left for it.
    expect(
      await runInDurableObject(runObject(run.run_id), (_, state) => state.storage.getAlarm()),
    ).toBeNull();
  });

  it("without the RUN_DIRECTORY binding: GET /v1/runs answers 503 naming it, the rest works", async () => {
    const service = await workersService({}, new DurableObjectStore(env.RUNS));
    const { admin, run } = await createRun(service, runInput([taskStage("draft")]));
    const refused = await admin.get("/v1/runs");
    expect([refused.status, refused.error]).toEqual([
      503,
      {
        error:
          'Listing runs on Cloudflare Workers needs the runs directory: bind RUN_DIRECTORY to the RunDirectory class in wrangler.jsonc (durable_objects, and a migration with new_sqlite_classes: ["RunDirectory"]), export RunDirectory from the Worker\'s module, then deploy again. Runs created before it are listed once a request or an alarm reaches their objects.',
        code: "SERVICE_UNAVAILABLE",
      },
    ]);
    expect((await admin.getRun(run.run_id)).status).toBe(200);
    expect((await admin.get(`/v1/runs/${run.run_id}/agents`)).status).toBe(200);
  });
});
