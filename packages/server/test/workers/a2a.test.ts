// A2A on workerd: an A2A agent registered with the router Worker (its card read from inside
// workerd), and its work items carried out from the run's Durable Object — set to ring at once
// when an item is on offer to it, its alarm claims the item and follows the A2A task by
// polling tasks/get (so the registration answers `streaming: false`). The agents are real (the
// official SDK's server, and hostile ones, in the suites' global setup, a2a-agent-setup.ts); each
// way an attempt fails inside the alarm's round is recorded with its reason, nothing escapes it.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { createRun, ofType, reviewStage, runInput, taskStage } from "../contract/client.ts";
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
    const added = await admin.post<{
      a2a: { stages: string[]; agent_name: string; streaming: boolean };
    }>(`/v1/runs/${run.run_id}/agents`, { body: { tag: "edge-writer", a2a: { url } } });
    expect(added.status, added.text).toBe(201);
    // Its card offers streaming; the run's object polls all the same, and says so.
    expect([added.body.a2a.agent_name, added.body.a2a.stages, added.body.a2a.streaming]).toEqual([
      "Edge writer",
      ["draft", "review"],
      false,
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

  it("an agent behind OAuth 2 client credentials: the object fetches a token, the item completes, no read shows the secret", async () => {
    const secret = inject("a2aOAuthSecret");
    const service = await workersService();
    const { admin, run, events } = await createRun(
      service,
      runInput([taskStage("draft")], { lease_ms: 60_000 }),
    );
    const path = `/v1/runs/${run.run_id}/agents`;
    const url = inject("a2aOAuthUrl");
    const bare = await admin.post<{ code: string; issues: unknown }>(path, {
      body: { tag: "edge-guarded", a2a: { url } },
    });
    expect([bare.status, bare.body.code]).toEqual([422, "AGENT_CREDENTIALS_MISSING"]);
    const added = await admin.post<{ a2a: { agent_name: string } }>(path, {
      body: {
        tag: "edge-guarded",
        a2a: { url, credentials: { oauth: { client_id: "edge", client_secret: secret } } },
      },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body.a2a.agent_name).toBe("Edge guarded");
    expect(await runDurableObjectAlarm(runObject(run.run_id))).toBe(true);
    expect((await admin.getRun(run.run_id)).body.status).toBe("completed");
    const agents = await admin.get(path);
    const page = await admin.get(`/runs/${run.run_id}`, { headers: { accept: "text/html" } });
    const shown = [added.text, agents.text, page.text, JSON.stringify(await events())].join("\n");
    expect(shown).toContain("Edge guarded");
    expect(shown).not.toContain(secret);
  });

  /** A run of one task stage (one attempt), with the A2A agent at `url` registered. */
  async function oneAttempt(url: string) {
    const service = await workersService();
    const fixture = await createRun(
      service,
      runInput([taskStage("draft")], { lease_ms: 60_000, max_attempts: 1 }),
    );
    const added = await fixture.admin.post(`/v1/runs/${fixture.run.run_id}/agents`, {
      body: { tag: "edge-agent", a2a: { url } },
    });
    expect(added.status, added.text).toBe(201);
    return fixture;
  }

  /** Rings the run's alarm once: its round ends the one attempt with a failure; its reason. */
  async function failedReason(fixture: Awaited<ReturnType<typeof oneAttempt>>) {
    expect(await runDurableObjectAlarm(runObject(fixture.run.run_id))).toBe(true);
    const all = await fixture.events();
    expect(ofType(all, "artifact.created")).toEqual([]);
    expect(ofType(all, "work_item.lease_expired")).toEqual([]);
    return ofType(all, "work_item.failed").map((event) => event.reason);
  }

  it("an agent answering HTTP 401: the attempt fails with that reason", async () => {
    const fixture = await oneAttempt(inject("a2aLockedUrl"));
    expect(await failedReason(fixture)).toEqual([
      "The A2A agent answered SendMessage with HTTP 401 Unauthorized.",
    ]);
  });

  it("a result of 2 MiB: the attempt fails with PAYLOAD_TOO_LARGE (the object's write is never tried)", async () => {
    const fixture = await oneAttempt(inject("a2aBulkyUrl"));
    // 2 MiB of text and 166 bytes of JSON around it: the completion the service would store.
    expect(await failedReason(fixture)).toEqual([
      "The A2A task's result is 2097318 bytes as a completion, over the service's limit of 1048576 bytes for one (PAYLOAD_TOO_LARGE, as for a completion sent over HTTP). Have the agent send less: store large content elsewhere and reference it.",
    ]);
  });

  it("a result of 20 MB: the attempt fails with the HTTP limit's code, read no further than 4 MiB (never SQLITE_TOOBIG)", async () => {
    const fixture = await oneAttempt(inject("a2aHugeUrl"));
    expect(await failedReason(fixture)).toEqual([
      "The A2A agent's answer to GetTask is larger than 4194304 bytes, the most the service reads of one answer or stream event (4 × its 1048576-byte request body limit, room for the task and its history): it stopped reading there. A result may be at most 1048576 bytes as a completion (PAYLOAD_TOO_LARGE, as over HTTP).",
    ]);
  });

  it("a store error in the alarm's round: the attempt fails with the store's reason", async () => {
    const fixture = await oneAttempt(inject("a2aAgentUrl"));
    // A real error of the object's SQLite storage, raised whenever an artifact is written.
    await runInDurableObject(runObject(fixture.run.run_id), (_, state) => {
      state.storage.sql.exec(
        "CREATE TRIGGER full BEFORE INSERT ON artifacts BEGIN SELECT RAISE(ABORT, 'the artifact store is full'); END",
      );
    });
    const [reason] = await failedReason(fixture);
    expect(reason).toMatch(
      /^The service could not store the A2A task's result: the artifact store is full.*\. The item goes back on offer\.$/,
    );
  });
});
