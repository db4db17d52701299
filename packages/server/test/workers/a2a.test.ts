// A2A on workerd: an A2A agent registered with the router Worker (its card read from inside
// workerd), and its work items carried out from the run's Durable Object — set to ring at once
// when an item is on offer to it, its alarm claims the item and follows the A2A task by
// polling tasks/get. The agent is real (the official SDK's server, in the suites' global setup).
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { createRun, reviewStage, runInput, taskStage } from "../contract/client.ts";
import { runObject, workersService } from "./services.ts";

const alarmOf = (runId: string) =>
  runInDurableObject(runObject(runId), (_, state) => state.storage.getAlarm());

describe("A2A agents on workerd", () => {
  it("the run's object dispatches from its alarm: a draft and its review, each one A2A task", async () => {
    const url = inject("a2aAgentUrl");
    const service = await workersService();
    const { admin, run, events } = await createRun(
      service,
      runInput([taskStage("draft"), reviewStage("review", "draft", ["logic"])], {
        lease_ms: 60_000,
      }),
    );
    const added = await admin.post<{ a2a: { stages: string[]; agent_name: string } }>(
      `/v1/runs/${run.run_id}/agents`,
      { body: { tag: "edge-writer", a2a: { url } } },
    );
    expect(added.status, added.text).toBe(201);
    expect([added.body.a2a.agent_name, added.body.a2a.stages]).toEqual([
      "Edge writer",
      ["draft", "review"],
    ]);
    // The registration set the alarm to ring now: an item is on offer to the A2A agent.
    const due = await alarmOf(run.run_id);
    expect(due).not.toBeNull();
    expect(due).toBeLessThanOrEqual(Date.now());

    // Ring it: the draft is claimed and sent, its task polled until completed.
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    // The review stage is offered; its author may not review it, so a second agent is needed.
    const types = (await events()).map((event) => event.type);
    expect(types).toContain("artifact.created");
    const critic = await admin.post<{ a2a: { stages: string[] } }>(
      `/v1/runs/${run.run_id}/agents`,
      {
        body: { tag: "edge-critic", a2a: { url, stages: ["review"] } },
      },
    );
    expect(critic.status, critic.text).toBe(201);
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);

    const done = await admin.getRun(run.run_id);
    expect(done.body.status).toBe("completed");
    const all = await events();
    const completed = all.flatMap((event) =>
      event.type === "work_item.completed" ? [[event.agent_tag, event.attempt]] : [],
    );
    expect(completed).toEqual([
      ["edge-writer", 1],
      ["edge-critic", 1],
    ]);
    const feedback = all.find((event) => event.type === "review.feedback");
    expect(feedback?.type === "review.feedback" && feedback.feedback.verdict).toBe("approve");
    // Nothing left to do: no alarm (no lease held, nothing on offer).
    expect(await alarmOf(run.run_id)).toBeNull();
  });
});
