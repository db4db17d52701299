// The service as an A2A agent, driven by the official SDK's client over loopback: a staged task
// sent as a message becomes a run, polling agents complete its stages, and the client sees the
// run's progress as the task's status and artifacts.
import { type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { describe, expect, it } from "vitest";
import { dataPart, textPart } from "../../src/a2a/a2a-parts.ts";
import { createServiceClient } from "../../src/client.ts";
import { a2aHarness, draftStage, reviewStage } from "../a2a/harness.ts";

const adminToken = "a2a-server-test-admin-token-0123456789";
const { service } = a2aHarness(adminToken);

/** The official SDK's client of the service, sending `token` as a bearer token. */
async function clientOf(url: string, token: string | undefined = adminToken): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set("Authorization", `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
  });
  return new ClientFactory(options).createFromUrl(url);
}

/** A user's message: the goal as text, a constraint, the stages as a data part. */
function stagedTask(messageId: string, stages: unknown = [draftStage, reviewStage]): Message {
  const constraint = textPart("Say Lumen, never Lumen Lamp", "text/plain");
  constraint.metadata = { task_context: "constraint" };
  return {
    messageId,
    contextId: "",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [
      textPart("Launch Lumen, a reading lamp", "text/plain"),
      constraint,
      dataPart({ stages }),
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

const request = (message: Message) => ({
  tenant: "",
  message,
  configuration: undefined,
  metadata: undefined,
});

/** The task a SendMessage answered. */
async function send(client: Client, message: Message): Promise<Task> {
  const answer = await client.sendMessage(request(message));
  if (!("status" in answer)) throw new Error("the service answered a message, not a task");
  return answer as Task;
}

/** The text of a task status's message. */
const said = (status: Task["status"]) =>
  status?.message?.parts.map((part) => (part.content?.$case === "text" ? part.content.value : ""));

describe("the service as an A2A agent", () => {
  it("serves its card: one JSON-RPC 1.0 interface at /a2a, bearer required, the skill", async () => {
    const { server } = await service();
    const response = await fetch(`${server.url}/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    const card = await response.json();
    expect(card.supportedInterfaces).toEqual([
      { url: `${server.url}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    ]);
    expect(card.securitySchemes).toEqual({
      bearer: {
        httpAuthSecurityScheme: {
          description: "The service's admin token (TASK_CONTEXT_ADMIN_TOKEN)",
          scheme: "Bearer",
        },
      },
    });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
    expect(card.skills.map((skill: { id: string }) => skill.id)).toEqual(["run-staged-task"]);
    expect(card.capabilities).toEqual({
      streaming: true,
      pushNotifications: false,
      extendedAgentCard: false,
    });
  });

  it("creates a run from a message; agents complete it; GetTask follows; the same message id answers the same task", async () => {
    const { server, admin } = await service();
    const client = await clientOf(server.url);
    const task = await send(client, stagedTask("launch-1"));
    expect(task.id).toMatch(/^run_[0-9a-z]{26}$/);
    expect([task.contextId, task.status?.state, task.artifacts]).toEqual([
      task.id,
      TaskState.TASK_STATE_SUBMITTED,
      [],
    ]);
    const run = await admin.getRun(task.id);
    expect([run.goal, run.constraints, run.stages.map((stage) => stage.id)]).toEqual([
      "Launch Lumen, a reading lamp",
      ["Say Lumen, never Lumen Lamp"],
      ["draft", "review"],
    ]);
    expect((await send(client, stagedTask("launch-1"))).id).toBe(task.id);
    expect((await admin.listRuns()).runs.length).toBe(1);

    const writer = await admin.addAgent(task.id, { tag: "writer" });
    const writing = createServiceClient({ url: server.url, token: writer.token });
    const draft = await writing.claimNext();
    expect((await client.getTask({ tenant: "", id: task.id })).status?.state).toBe(
      TaskState.TASK_STATE_WORKING,
    );
    await writing.complete(draft?.work_item.id ?? "", {
      attempt: 1,
      artifact: { media_type: "text/markdown", content: "# Lumen", title: "Launch post" },
    });
    const critic = await admin.addAgent(task.id, { tag: "critic" });
    const reviewing = createServiceClient({ url: server.url, token: critic.token });
    const review = await reviewing.claimNext();
    await reviewing.complete(review?.work_item.id ?? "", {
      attempt: 1,
      review: {
        verdict: "approve",
        summary: "Clear",
        criteria: [
          { criterion: "clarity", score: 9, comment: "fine" },
          { criterion: "brand", score: 9, comment: "fine" },
        ],
      },
    });
    const done = await client.getTask({ tenant: "", id: task.id });
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(said(done.status)).toEqual(["The run completed its 2 stage(s)."]);
    expect(
      done.artifacts.map((artifact) => [
        artifact.name,
        artifact.parts[0]?.content,
        artifact.metadata?.author_tag,
      ]),
    ).toEqual([["Launch post", { $case: "text", value: "# Lumen" }, "writer"]]);
  });

  it("streams the run: the task, then working, the artifact as its stage completes, completed", async () => {
    const { server, admin } = await service();
    const client = await clientOf(server.url);
    const stream = client.sendMessageStream(request(stagedTask("stream-1", [draftStage])));
    const first = (await stream.next()).value;
    const task = first?.payload?.$case === "task" ? first.payload.value : undefined;
    if (task === undefined) throw new Error(`the stream began with ${JSON.stringify(first)}`);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const updates: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        const payload = event.payload;
        if (payload?.$case === "statusUpdate") {
          updates.push(
            `${TaskState[payload.value.status?.state ?? 0]}: ${said(payload.value.status)}`,
          );
        } else if (payload?.$case === "artifactUpdate") {
          const part = payload.value.artifact?.parts[0]?.content;
          updates.push(
            `artifact ${payload.value.artifact?.name}: ${part?.$case === "text" ? part.value : ""}`,
          );
        } else updates.push(String(payload?.$case));
      }
    })();
    const writer = await admin.addAgent(task.id, { tag: "writer" });
    const writing = createServiceClient({ url: server.url, token: writer.token });
    const draft = await writing.claimNext();
    await writing.complete(draft?.work_item.id ?? "", {
      attempt: 1,
      artifact: { media_type: "text/markdown", content: "# Lumen", title: "Launch post" },
    });
    await reading;
    expect(updates).toEqual([
      `TASK_STATE_WORKING: Agent "writer" took work item ${draft?.work_item.id}.`,
      "artifact Launch post: # Lumen",
      'TASK_STATE_WORKING: Stage "draft" completed.',
      "TASK_STATE_COMPLETED: The run completed its 1 stage(s).",
    ]);
  });
});
