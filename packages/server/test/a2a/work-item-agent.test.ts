// The public work-item agent of @task-context/server/a2a-agent: served with startWorkItemAgent on
// loopback, worked through by the service, and spoken to directly with the official SDK's client
// (for what the service never sends: messages that are not work items, a cancel it waits on); and
// the agent of docs/a2a.md (examples/a2a-agent.ts), run as the page says, in a process of its own.
import { once } from "node:events";
import { type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { describe, expect, it } from "vitest";
import { workItemMessage } from "../../src/a2a/work-item-message.ts";
import {
  dataPart,
  type RunningWorkItemAgent,
  startWorkItemAgent,
  type WorkItemAgentOptions,
  type WorkItemTask,
} from "../../src/a2a-agent.ts";
import { type ClaimView, createServiceClient } from "../../src/client.ts";
import { completeNextByPolling } from "./a2a-agent.ts";
import {
  a2aHarness,
  draftStage,
  lumenRun,
  ofType,
  reviewStage,
  events as runEvents,
  settled,
  untilEvent,
  waitFor,
} from "./harness.ts";

const adminToken = "a2a-agent-test-admin-token-0123456789";

const { service, example, onClose } = a2aHarness(adminToken, { a2aPollMs: 20 });

/** A work-item agent, closed after the test. */
async function workItemAgent(options: WorkItemAgentOptions): Promise<RunningWorkItemAgent> {
  const agent = await startWorkItemAgent(options);
  onClose(() => agent.close());
  return agent;
}

/** A claim of the run's draft by a polling agent: what the service would send an A2A agent. */
async function claimedDraft(): Promise<{ claim: ClaimView; serviceUrl: string }> {
  const { server, admin } = await service();
  const run = await admin.createRun(lumenRun());
  const poller = await admin.addAgent(run.run_id, { tag: "poller" });
  const claim = await createServiceClient({ url: server.url, token: poller.token }).claimNext();
  if (claim === undefined) throw new Error("the draft was not on offer");
  return { claim, serviceUrl: server.url };
}

/** The official SDK's client of `agent`. */
const clientOf = (agent: RunningWorkItemAgent) => new ClientFactory().createFromUrl(agent.url);

/** Sends `message`, returning at once (the task as it is then) or when the task settles. */
async function send(agent: RunningWorkItemAgent, message: Message, returnImmediately = false) {
  const answer = await (await clientOf(agent)).sendMessage({
    tenant: "",
    message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately,
    },
    metadata: undefined,
  });
  if (!("status" in answer)) throw new Error("the agent answered a message, not a task");
  return answer as Task;
}

/** What a task's status says, as text. */
const said = (task: Task) =>
  task.status?.message?.parts.map((part) =>
    part.content?.$case === "text" ? part.content.value : "",
  );

describe("startWorkItemAgent", () => {
  it("works a run's draft and review: execute gets the item; what it returns is the artifact, then completed", async () => {
    const { admin } = await service();
    const seen: WorkItemTask[] = [];
    const writer = await workItemAgent({
      name: "Writer",
      skills: [{ id: "copywriting" }],
      execute: (task) => {
        seen.push(task);
        return `# ${task.item.stage_id}\n\n${task.item.goal}`;
      },
    });
    const critic = await workItemAgent({
      name: "Critic",
      skills: [{ id: "review", tags: ["reviewing"] }],
      streaming: false,
      execute: (task) =>
        task.item.kind === "review"
          ? [
              dataPart({
                verdict: "approve",
                summary: "Clear",
                criteria: task.item.review_context.review_criteria.map((criterion) => ({
                  criterion,
                  score: 9,
                  comment: "fine",
                })),
              }),
            ]
          : undefined,
    });
    const run = await admin.createRun(lumenRun({ stages: [draftStage, reviewStage] }));
    const added = await admin.addAgent(run.run_id, { tag: "writer", a2a: { url: writer.url } });
    expect(added.a2a).toMatchObject({ agent_name: "Writer", stages: ["draft"], streaming: true });
    await admin.addAgent(run.run_id, { tag: "critic", a2a: { url: critic.url } });
    expect((await settled(admin, run.run_id)).status).toBe("completed");

    const [draft] = seen;
    expect([seen.length, draft?.item.stage_id, draft?.attempt, draft?.contextId]).toEqual([
      1,
      "draft",
      1,
      run.run_id,
    ]);
    expect(draft?.metadata.context_sha256).toBe(draft?.item.context_sha256);
    expect(draft?.text.split("\n")[0]).toBe("[Task Context]");
    expect(draft?.signal.aborted).toBe(false);
    const all = await runEvents(admin, run.run_id);
    const [created] = ofType(all, "artifact.created");
    const artifact = await admin.getArtifact(run.run_id, created?.artifact.artifact_id ?? "");
    expect([artifact.author_tag, artifact.media_type, artifact.title, artifact.content]).toEqual([
      "writer",
      "text/markdown",
      "draft by Writer",
      "# draft\n\nLaunch Lumen, a reading lamp",
    ]);
    expect(ofType(all, "review.feedback").map((event) => event.feedback)).toEqual([
      {
        work_item_id: expect.any(String),
        target_artifact_id: artifact.id,
        reviewer_tag: "critic",
        verdict: "approve",
        summary: "Clear",
        criteria: [
          { criterion: "clarity", score: 9, comment: "fine" },
          { criterion: "brand", score: 9, comment: "fine" },
        ],
      },
    ]);
  });

  it("fails the attempt with the error's message when execute throws", async () => {
    const { admin } = await service();
    const broken = await workItemAgent({
      name: "Broken",
      skills: [{ id: "copywriting" }],
      execute: () => {
        throw new Error("The model is down.");
      },
    });
    const run = await admin.createRun(lumenRun());
    await admin.addAgent(run.run_id, { tag: "broken", a2a: { url: broken.url } });
    const failed = await untilEvent(admin, run.run_id, "work_item.failed");
    expect(failed.reason).toBe(
      "The A2A task ended failed: Agent execution error: The model is down.",
    );
  });

  it("serves the card the service reads: its name, skills and streaming, one JSON-RPC interface at its URL", async () => {
    const agent = await workItemAgent({
      name: "Illustrator",
      skills: [
        { id: "illustration", tags: ["image_generation"] },
        { id: "sketch", name: "Sketch" },
      ],
      streaming: false,
      execute: () => undefined,
    });
    const response = await fetch(`${agent.url}/.well-known/agent-card.json`);
    const card = await response.json();

    expect(agent.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(card).toEqual(JSON.parse(JSON.stringify(agent.card)));
    expect(card).toMatchObject({
      name: "Illustrator",
      description: "Illustrator: an A2A agent that works task-context work items.",
      supportedInterfaces: [
        { url: `${agent.url}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ],
      capabilities: { streaming: false, pushNotifications: false },
      securityRequirements: [],
      skills: [
        {
          id: "illustration",
          name: "illustration",
          description: "illustration",
          tags: ["image_generation"],
        },
        { id: "sketch", name: "Sketch", description: "Sketch", tags: [] },
      ],
    });
    const behindProxy = await workItemAgent({
      name: "Proxied",
      skills: [],
      url: "https://agents.example.com/illustrator",
      execute: () => undefined,
    });
    expect(behindProxy.url).toBe("https://agents.example.com/illustrator");
    expect(behindProxy.card.supportedInterfaces[0]?.url).toBe(
      "https://agents.example.com/illustrator/",
    );
  });
});

describe("a work-item agent, spoken to with the official SDK's client", () => {
  const message = (parts: Message["parts"], metadata?: Message["metadata"]): Message => ({
    messageId: crypto.randomUUID(),
    contextId: "run_01",
    taskId: "",
    role: Role.ROLE_USER,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  });
  const text = { content: { $case: "text" as const, value: "[Task Context]" } };
  const part = (content: Message["parts"][number]["content"]) => ({
    content,
    mediaType: "application/json",
    filename: "",
    metadata: undefined,
  });

  it("rejects a message that carries no valid work item, saying what is missing; execute never runs", async () => {
    let executed = 0;
    const agent = await workItemAgent({
      name: "Strict",
      skills: [],
      execute: () => {
        executed++;
        return "never";
      },
    });
    const attempt = { task_context: { attempt: 1 } };
    const answers = await Promise.all([
      send(agent, message([part(text.content)])),
      send(agent, message([part(text.content)], attempt)),
      send(
        agent,
        message([part(text.content), part({ $case: "data", value: { kind: "task" } })], attempt),
      ),
    ]);

    expect(answers.map((task) => task.status?.state)).toEqual([
      TaskState.TASK_STATE_REJECTED,
      TaskState.TASK_STATE_REJECTED,
      TaskState.TASK_STATE_REJECTED,
    ]);
    const sentence = (what: string) =>
      `The message carries no valid task-context work item: ${what}. This agent works the work items a task-context delivery service sends.`;
    expect(answers.map((task) => said(task))).toEqual([
      [sentence("it has no task_context metadata with the attempt")],
      [sentence("it has no data part")],
      [
        sentence(
          "its data part is not a work-item.v1 (/id: id is required: a non-empty string; /run_id: run_id is required: a non-empty string; /stage_id: stage_id is required: a non-empty string; /goal: goal is required: a non-empty string, the run's goal, on every work item; /constraints: constraints is required: an array, the run's constraints, on every work item; 4 more)",
        ),
      ],
    ]);
    expect(executed).toBe(0);
  });

  it("on a cancel, aborts the task's signal and ends it canceled; what execute returns afterwards is not sent", async () => {
    const { claim, serviceUrl } = await claimedDraft();
    let returned: Promise<void> = Promise.resolve();
    let signal: AbortSignal | undefined;
    const agent = await workItemAgent({
      name: "Slow",
      skills: [],
      execute: (task) => {
        signal = task.signal;
        task.working();
        const done = once(task.signal, "abort").then(() => "# too late");
        returned = done.then(() => undefined);
        return done;
      },
    });
    const started = await send(agent, workItemMessage(claim, { serviceUrl }), true);
    const client = await clientOf(agent);
    await waitFor(
      "the task working",
      () => client.getTask({ tenant: "", id: started.id, historyLength: undefined }),
      (task) => task.status?.state === TaskState.TASK_STATE_WORKING,
    );
    const canceled = await client.cancelTask({ tenant: "", id: started.id, metadata: undefined });
    await returned;

    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((signal?.reason as Error | undefined)?.message).toBe(
      `The service canceled A2A task ${started.id}.`,
    );
    const after = await client.getTask({ tenant: "", id: started.id, historyLength: undefined });
    expect([after.status?.state, after.artifacts]).toEqual([TaskState.TASK_STATE_CANCELED, []]);
  });

  it("close() aborts the signal of every open task", async () => {
    const { claim, serviceUrl } = await claimedDraft();
    let signal: AbortSignal | undefined;
    const agent = await startWorkItemAgent({
      name: "Closing",
      skills: [],
      execute: async (task) => {
        signal = task.signal;
        await once(task.signal, "abort");
        return undefined;
      },
    });
    await send(agent, workItemMessage(claim, { serviceUrl }), true);
    await waitFor(
      "the task to start",
      () => signal,
      (value) => value !== undefined,
    );
    await agent.close();

    expect((signal?.reason as Error | undefined)?.message).toBe("The agent closed.");
  });
});

describe("the A2A agent of docs/a2a.md", () => {
  it("reviews a draft with a data part and does its own stage in Markdown, printing each task", async () => {
    const { server, admin } = await service();
    const printed = example("a2a-agent.ts", { PORT: "0" });
    const lines = () =>
      printed()
        .split("\n")
        .filter((line) => line !== "");
    const [started = ""] = await waitFor("the agent's URL", lines, (all) => all.length > 0);
    const url = /^A2A agent "Illustrator" on (http:\/\/127\.0\.0\.1:\d+)$/.exec(started)?.[1];
    expect(url).toBeDefined();

    const illustrate = {
      id: "illustrate",
      stage_description: "Draw the launch illustration",
      expected_output: "Markdown",
      available_skills: ["illustration"],
    };
    const review = { ...reviewStage, available_skills: ["image_generation"] };
    const run = await admin.createRun(lumenRun({ stages: [draftStage, review, illustrate] }));
    const writer = await admin.addAgent(run.run_id, { tag: "writer" });
    const added = await admin.addAgent(run.run_id, {
      tag: "illustrator",
      a2a: { url: url ?? "" },
    });
    expect(added.a2a?.stages).toEqual(["review", "illustrate"]);
    await completeNextByPolling(createServiceClient({ url: server.url, token: writer.token }));
    expect((await settled(admin, run.run_id)).status).toBe("completed");

    const all = await runEvents(admin, run.run_id);
    expect(ofType(all, "review.feedback").map(({ feedback }) => feedback)).toMatchObject([
      {
        reviewer_tag: "illustrator",
        verdict: "approve",
        summary: "Fits the brief",
        criteria: [
          { criterion: "clarity", score: 8, comment: "clarity: fine" },
          { criterion: "brand", score: 8, comment: "brand: fine" },
        ],
      },
    ]);
    const drawn = ofType(all, "artifact.created").find(
      (event) => event.artifact.author_tag === "illustrator",
    );
    const artifact = await admin.getArtifact(run.run_id, drawn?.artifact.artifact_id ?? "");
    expect([artifact.title, artifact.media_type, artifact.content]).toEqual([
      "illustrate by Illustrator",
      "text/markdown",
      "# illustrate\n\nAn illustration of: Launch Lumen, a reading lamp",
    ]);
    const items = ofType(all, "work_item.offered").map((event) => [
      event.stage_id,
      event.work_item_id,
    ]);
    const itemOf = (stage: string) => items.find(([id]) => id === stage)?.[1];
    expect(lines().slice(1)).toEqual([
      `review ${itemOf("review")}, attempt 1, stage review`,
      `task ${itemOf("illustrate")}, attempt 1, stage illustrate`,
    ]);
  });
});
