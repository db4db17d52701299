// Hostile A2A agents against the Node service: a card that is missing, malformed or lies about
// its skills; an artifact that is not one; completed twice; a late answer for an older attempt;
// an agent that never answers; an agent that goes away mid-stream. Each ends as a polling
// agent's would: a clear refusal, a retry, a dead letter — never a lost or doubled completion.
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import {
  type CollaborationEvent,
  type CreateRunInput,
  type ServiceClient,
  ServiceError,
} from "../../src/client.ts";
import { a2aHarness } from "./harness.ts";

const adminToken = "a2a-hostile-admin-token-0123456789";
const { service, agent } = a2aHarness(adminToken, { a2aPollMs: 25, sweepMs: 25 });

const oneItem = (leaseMs: number, maxAttempts: number): CreateRunInput => ({
  goal: "Launch Lumen, a reading lamp",
  constraints: [],
  lease_ms: leaseMs,
  max_attempts: maxAttempts,
  stages: [
    {
      id: "draft",
      stage_description: "Write the launch post",
      expected_output: "Markdown",
      available_skills: ["copywriting"],
    },
  ],
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settled(admin: ServiceClient, runId: string, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const run = await admin.getRun(runId);
    if (run.status !== "active" || Date.now() > end) return run;
    await sleep(25);
  }
}

async function events(admin: ServiceClient, runId: string): Promise<CollaborationEvent[]> {
  return (await admin.listEvents(runId, { after: 0, limit: 500 })).events;
}

const ofType = <T extends CollaborationEvent["type"]>(all: CollaborationEvent[], type: T) =>
  all.filter((event): event is Extract<CollaborationEvent, { type: T }> => event.type === type);

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ServiceError.isInstance(error)) throw new Error(`expected a ServiceError, got ${error}`);
  return error;
}

describe("registering an A2A agent", () => {
  it("refuses an agent whose card is missing, and keeps nothing: the tag stays free", async () => {
    const { admin } = await service();
    const missing = await agent({
      name: "Ghost",
      skills: [{ id: "copywriting" }],
      card: () => null,
    });
    const run = await admin.createRun(oneItem(60_000, 3));
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "ghost", a2a: { url: missing.url } }),
    );
    expect(error.status).toBe(422);
    expect(error.code).toBe("AGENT_CARD_INVALID");
    expect(error.message).toBe(
      `The A2A agent card at ${missing.url}/.well-known/agent-card.json answered HTTP 404. Check the agent's URL and that it serves an A2A 1.0 agent card there.`,
    );
    const good = await agent({ name: "Writer", skills: [{ id: "copywriting" }] });
    const added = await admin.addAgent(run.run_id, { tag: "ghost", a2a: { url: good.url } });
    expect(added.a2a?.stages).toEqual(["draft"]);
  });

  it("refuses a card that is not JSON, or lacks its interfaces, naming the fields", async () => {
    const { admin } = await service();
    const run = await admin.createRun(oneItem(60_000, 3));
    const text = await agent({ name: "Text", skills: [], card: () => "<html>hello</html>" });
    const notJson = await refusal(admin.addAgent(run.run_id, { tag: "a", a2a: { url: text.url } }));
    expect([notJson.code, notJson.message]).toEqual([
      "AGENT_CARD_INVALID",
      `The A2A agent card at ${text.url}/.well-known/agent-card.json is not JSON. Check the agent's URL and that it serves an A2A 1.0 agent card there.`,
    ]);
    const bare = await agent({
      name: "Bare",
      skills: [{ id: "copywriting" }],
      card: (card) => ({ ...card, supportedInterfaces: [] }),
    });
    const noInterface = await refusal(
      admin.addAgent(run.run_id, { tag: "b", a2a: { url: bare.url } }),
    );
    expect(noInterface.code).toBe("AGENT_CARD_INVALID");
    expect(noInterface.issues?.map((issue) => issue.path)).toEqual(["/supportedInterfaces"]);
  });

  it("refuses an agent whose skills cover no stage, naming each missing skill", async () => {
    const { admin } = await service();
    const run = await admin.createRun(oneItem(60_000, 3));
    const painter = await agent({ name: "Painter", skills: [{ id: "painting", tags: ["art"] }] });
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "p", a2a: { url: painter.url } }),
    );
    expect(error.code).toBe("AGENT_SKILLS_MISMATCH");
    expect(error.issues).toEqual([
      {
        path: "/stages/draft",
        message:
          'Stage "draft" needs copywriting, which the agent card of "Painter" does not declare (as a skill id or tag).',
      },
    ]);
    const unknown = await refusal(
      admin.addAgent(run.run_id, { tag: "p", a2a: { url: painter.url, stages: ["nope"] } }),
    );
    expect([unknown.status, unknown.code]).toEqual([400, "INVALID_REQUEST"]);
  });
});

describe("a hostile A2A agent", () => {
  it("lies about its skills (rejects every task): each attempt fails with why, then a dead letter", async () => {
    const { admin } = await service();
    const liar = await agent({
      name: "Liar",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => task.finish(TaskState.TASK_STATE_REJECTED, "I only paint."),
    });
    const run = await admin.createRun(oneItem(60_000, 2));
    await admin.addAgent(run.run_id, { tag: "liar", a2a: { url: liar.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    const [letter] = (await admin.listDeadLetters(run.run_id)).dead_letters;
    expect(
      letter?.attempts.map((attempt) => [attempt.attempt, attempt.outcome, attempt.reason]),
    ).toEqual([
      [1, "failed", "The A2A task ended rejected: I only paint."],
      [2, "failed", "The A2A task ended rejected: I only paint."],
    ]);
    expect(liar.tasks.map((task) => task.attempt)).toEqual([1, 2]);
  });

  it("sends an artifact that is not one: that attempt fails with why, the next one completes", async () => {
    const { admin } = await service();
    let calls = 0;
    const sloppy = await agent({
      name: "Sloppy",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => {
        calls += 1;
        if (calls === 1) {
          task.complete([
            {
              content: { $case: "url", value: "http://127.0.0.1:9/x" },
              mediaType: "image/png",
              filename: "",
              metadata: undefined,
            },
          ]);
        } else task.complete();
      },
    });
    const run = await admin.createRun(oneItem(60_000, 3));
    await admin.addAgent(run.run_id, { tag: "sloppy", a2a: { url: sloppy.url } });
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    const all = await events(admin, run.run_id);
    expect(ofType(all, "work_item.failed").map((event) => event.reason)).toEqual([
      "The A2A task completed with an artifact that has no text or data part (file parts are not accepted as an artifact's content).",
    ]);
    expect(ofType(all, "work_item.completed").map((event) => event.attempt)).toEqual([2]);
  });

  it("reports completed twice: one completion, one artifact", async () => {
    const { admin } = await service();
    const twice = await agent({
      name: "Twice",
      skills: [{ id: "copywriting" }],
      streaming: false,
      behaviour: async (task) => {
        task.complete();
        task.complete();
      },
    });
    const run = await admin.createRun(oneItem(60_000, 3));
    await admin.addAgent(run.run_id, { tag: "twice", a2a: { url: twice.url } });
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    await sleep(200);
    const all = await events(admin, run.run_id);
    expect(ofType(all, "work_item.completed")).toHaveLength(1);
    expect(ofType(all, "artifact.created")).toHaveLength(1);
  });

  it("answers late for an older attempt: refused as stale; the newer attempt's work is kept", async () => {
    const { admin } = await service();
    const slow = await agent({
      name: "Slow",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => {
        if (task.attempt === 1) {
          await sleep(700); // silent past the 300 ms lease: attempt 2 starts meanwhile
          task.complete([
            {
              content: { $case: "text", value: "late, attempt 1" },
              mediaType: "text/plain",
              filename: "",
              metadata: undefined,
            },
          ]);
          return;
        }
        task.complete([
          {
            content: { $case: "text", value: "on time, attempt 2" },
            mediaType: "text/plain",
            filename: "",
            metadata: undefined,
          },
        ]);
      },
    });
    const run = await admin.createRun(oneItem(300, 3));
    await admin.addAgent(run.run_id, { tag: "slow", a2a: { url: slow.url, concurrency: 2 } });
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    await sleep(1000); // attempt 1's late answer arrives and is refused
    expect(slow.tasks.map((task) => task.attempt)).toEqual([1, 2]);
    const all = await events(admin, run.run_id);
    const completed = ofType(all, "work_item.completed");
    expect(completed.map((event) => event.attempt)).toEqual([2]);
    const [created] = ofType(all, "artifact.created");
    const artifact = await admin.getArtifact(run.run_id, created?.artifact.artifact_id ?? "");
    expect(artifact.content).toBe("on time, attempt 2");
  });

  it("never answers: each attempt expires past its lease, the task is canceled, then a dead letter", async () => {
    const { admin } = await service();
    const mute = await agent({
      name: "Mute",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => {
        while (!task.canceled()) await sleep(20);
      },
    });
    const run = await admin.createRun(oneItem(200, 2));
    await admin.addAgent(run.run_id, { tag: "mute", a2a: { url: mute.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    const [letter] = (await admin.listDeadLetters(run.run_id)).dead_letters;
    expect(letter?.attempts.map((attempt) => [attempt.attempt, attempt.outcome])).toEqual([
      [1, "expired"],
      [2, "expired"],
    ]);
    await sleep(800);
    expect(mute.tasks.every((task) => task.canceled())).toBe(true);
  });

  it("stays working for ever (polled with tasks/get): the same `working` renews nothing, the lease expires", async () => {
    const { admin } = await service();
    const stuck = await agent({
      name: "Stuck",
      skills: [{ id: "copywriting" }],
      streaming: false,
      behaviour: async (task) => {
        task.working();
        while (!task.canceled()) await sleep(20);
      },
    });
    const run = await admin.createRun(oneItem(200, 2));
    await admin.addAgent(run.run_id, { tag: "stuck", a2a: { url: stuck.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    const [letter] = (await admin.listDeadLetters(run.run_id)).dead_letters;
    expect(letter?.attempts.map((attempt) => [attempt.attempt, attempt.outcome])).toEqual([
      [1, "expired"],
      [2, "expired"],
    ]);
  });

  it.each([
    ["streaming", true],
    ["tasks/get", false],
  ])(
    "works past its lease saying `working` again and again (%s): each says so, the attempt keeps its lease",
    async (_name, streaming) => {
      const { admin } = await service();
      const busy = await agent({
        name: "Busy",
        skills: [{ id: "copywriting" }],
        streaming,
        behaviour: async (task) => {
          for (let step = 0; step < 12; step++) {
            task.working();
            await sleep(50);
          }
          task.complete();
        },
      });
      const run = await admin.createRun(oneItem(300, 2));
      await admin.addAgent(run.run_id, { tag: "busy", a2a: { url: busy.url } });
      expect((await settled(admin, run.run_id)).status).toBe("completed");
      const all = await events(admin, run.run_id);
      expect(ofType(all, "work_item.lease_expired")).toEqual([]);
      expect(ofType(all, "work_item.completed").map((event) => event.attempt)).toEqual([1]);
    },
  );

  it("goes away mid-stream: the lease expires and another agent completes the next attempt", async () => {
    const { admin } = await service();
    let vanish: () => void = () => undefined;
    const vanished = new Promise<void>((resolve) => {
      vanish = resolve;
    });
    const flaky = await agent({
      name: "Flaky",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => {
        task.working();
        await sleep(100); // the task and its working update reach the service first
        vanish();
        await sleep(60_000);
      },
    });
    const run = await admin.createRun(oneItem(300, 3));
    await admin.addAgent(run.run_id, { tag: "flaky", a2a: { url: flaky.url } });
    await vanished;
    await flaky.close();
    const steady = await agent({ name: "Steady", skills: [{ id: "copywriting" }] });
    await admin.addAgent(run.run_id, { tag: "steady", a2a: { url: steady.url } });
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    const all = await events(admin, run.run_id);
    // Attempt 1 expired (the stream broke, tasks/get found nobody); the gone agent's next
    // attempts fail at once (unreachable) until the steady one claims the item.
    const completed = ofType(all, "work_item.completed");
    expect(completed.map((event) => event.agent_tag)).toEqual(["steady"]);
    expect(
      ofType(all, "work_item.lease_expired").map((event) => [event.attempt, event.agent_tag]),
    ).toEqual([[1, "flaky"]]);
    for (const failed of ofType(all, "work_item.failed")) {
      expect([
        failed.agent_tag,
        failed.reason.startsWith("The A2A agent could not be reached: "),
      ]).toEqual(["flaky", true]);
    }
  });
});
