// The typed client inside workerd: it needs only a fetch, here the Worker's own (src/workers.ts
// with the run objects of wrangler.jsonc), so a Worker can drive another service as an agent.
import { env, exports } from "cloudflare:workers";
import { type CollaborationEvent, createServiceClient, type Fetch } from "@task-context/client";
import { describe, expect, it } from "vitest";
import { runInput, taskStage } from "../contract/client.ts";

const url = "http://edge.test";
const fetch: Fetch = (input, init) => exports.default.fetch(input, init);

describe("the typed client on workerd", () => {
  it("creates a run, claims and completes its item, maps a refusal and follows the events", async () => {
    const admin = createServiceClient({ url, token: env.TASK_CONTEXT_ADMIN_TOKEN ?? "", fetch });
    const run = await admin.createRun(runInput([taskStage("draft")]));
    const { token } = await admin.addAgent(run.run_id, { tag: "writer" });
    const agent = createServiceClient({ url, token, fetch });
    const claim = await agent.claimNext();
    const id = claim?.work_item.id ?? "";
    expect(claim?.lease.attempt).toBe(1);
    const done = await agent.complete(id, {
      attempt: 1,
      artifact: { media_type: "text/markdown", content: "# Edge runtimes" },
    });
    expect([done.work_item_id, done.status]).toEqual([id, "completed"]);
    const refused = await agent.heartbeat(id, { attempt: 1 }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: "ServiceError", status: 409, code: "ALREADY_COMPLETED" });

    const events: CollaborationEvent[] = [];
    for await (const event of admin.followEvents(run.run_id)) events.push(event);
    expect(events.map((event) => `${event.seq} ${event.type}`)).toEqual([
      "1 run.created",
      "2 work_item.offered",
      "3 work_item.leased",
      "4 artifact.created",
      "5 work_item.completed",
      "6 stage.completed",
      "7 run.completed",
    ]);
    expect(await admin.getArtifact(run.run_id, done.artifact_id ?? "")).toMatchObject({
      content: "# Edge runtimes",
    });
  });
});
