// The service as an A2A agent on Node (SQLite), driven by the official SDK's client over
// loopback: a staged task sent as a message becomes a run, polling agents complete its stages,
// and the client sees the run's progress as the task's status and artifacts.
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { createServiceClient } from "../../src/client.ts";
import { serviceSettingsFromEnv } from "../../src/settings.ts";
import { a2aHarness, draftStage, reviewStage } from "../a2a/harness.ts";
import {
  a2aClientOf,
  completeAsWriter,
  refusal,
  request,
  said,
  send,
  stagedTask,
} from "./a2a-client.ts";

const adminToken = "a2a-server-test-admin-token-0123456789";
const { service } = a2aHarness(adminToken);

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
          description:
            "The service's admin token, or a token scoped to creating runs (TASK_CONTEXT_A2A_TOKENS)",
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
    const client = await a2aClientOf(server.url, adminToken);
    const task = await send(client, stagedTask("launch-1", [draftStage, reviewStage]));
    expect(task.id).toMatch(/^run_[0-7][0-9a-z]{25}$/);
    expect([task.contextId, task.status?.state, task.artifacts]).toEqual([
      task.id,
      TaskState.TASK_STATE_SUBMITTED,
      [],
    ]);
    expect(said(task.status)).toEqual([
      'The run is at stage 1 of 2 ("draft"): 0 of 1 item(s) completed.',
    ]);
    const run = await admin.getRun(task.id);
    expect([run.goal, run.constraints, run.stages.map((stage) => stage.id)]).toEqual([
      "Launch Lumen, a reading lamp",
      ["Say Lumen, never Lumen Lamp"],
      ["draft", "review"],
    ]);
    const again = await send(client, stagedTask("launch-1", [draftStage, reviewStage]));
    expect(again.id).toBe(task.id);
    expect((await admin.listRuns()).runs.map((listed) => listed.run_id)).toEqual([task.id]);

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
    // The status's time is the run's last event's (run.completed).
    const { events } = await admin.listEvents(task.id);
    expect([events.at(-1)?.type, done.status?.timestamp]).toEqual([
      "run.completed",
      events.at(-1)?.at,
    ]);
    expect(said(done.status)).toEqual(["The run completed its 2 stage(s)."]);
    expect(
      done.artifacts.map((artifact) => [
        artifact.artifactId,
        artifact.name,
        artifact.parts[0]?.content,
        artifact.parts[0]?.mediaType,
        artifact.metadata,
      ]),
    ).toEqual([
      [
        expect.stringMatching(/^art_/),
        "Launch post",
        { $case: "text", value: "# Lumen" },
        "text/markdown",
        { stage_id: "draft", work_item_id: draft?.work_item.id, author_tag: "writer" },
      ],
    ]);
  });

  it("streams the run: the task, then working, the artifact as its stage completes, completed", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
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
          const { state } = payload.value.status ?? {};
          updates.push(`${TaskState[state ?? 0]}: ${said(payload.value.status)}`);
        } else if (payload?.$case === "artifactUpdate") {
          const part = payload.value.artifact?.parts[0]?.content;
          const text = part?.$case === "text" ? part.value : "";
          updates.push(`artifact ${payload.value.artifact?.name}: ${text}`);
        } else updates.push(String(payload?.$case));
      }
    })();
    const draftId = await completeAsWriter(server.url, admin, task.id);
    await reading;
    expect(updates).toEqual([
      `TASK_STATE_WORKING: Agent "writer" took work item ${draftId}.`,
      "artifact Launch post: # Lumen",
      'TASK_STATE_WORKING: Stage "draft" completed.',
      "TASK_STATE_COMPLETED: The run completed its 1 stage(s).",
    ]);
    // A subscription to an ended task is refused; GetTask reads it.
    expect(await refusal(collect(client.resubscribeTask({ tenant: "", id: task.id })))).toEqual({
      name: "UnsupportedOperationError",
      message: `Task ${task.id} has ended: read it with GetTask instead of subscribing.`,
      metadata: undefined,
    });
  });

  it("a blocked run's task is failed, with why; once its dead letter is requeued, working again", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
    const message = stagedTask("block-1", [draftStage]);
    const stages = message.parts[2];
    if (stages?.content?.$case !== "data") throw new Error("no data part");
    stages.content.value = { stages: [draftStage], max_attempts: 1 };
    const task = await send(client, message);
    const writer = await admin.addAgent(task.id, { tag: "writer" });
    const writing = createServiceClient({ url: server.url, token: writer.token });
    const claim = await writing.claimNext();
    const itemId = claim?.work_item.id ?? "";
    await writing.fail(itemId, { attempt: 1, reason: "The brief is unclear" });
    const blocked = await client.getTask({ tenant: "", id: task.id });
    expect([blocked.status?.state, said(blocked.status)]).toEqual([
      TaskState.TASK_STATE_FAILED,
      [
        `The run is blocked at stage 1 of 1 ("draft"): a work item was dead-lettered after 1 attempt. An admin's requeue (POST /v1/runs/${task.id}/work-items/{id}/requeue) resumes it.`,
      ],
    ]);
    await admin.requeue(task.id, itemId);
    expect((await client.getTask({ tenant: "", id: task.id })).status?.state).toBe(
      TaskState.TASK_STATE_WORKING,
    );
  });

  it("refuses stage data the run schema does not accept, naming the issues; nothing is created", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
    const stages = [{ ...draftStage, expected_output: "" }, { id: "draft" }];
    const refused = await refusal(send(client, stagedTask("bad-1", stages)));
    expect(refused.name).toBe("RequestMalformedError");
    expect(refused.message).toBe(
      "The message does not describe a run the service can create (text parts: the goal; a data part: the stages). Fix the issues listed: stages[0].expected_output must not be empty. stages[1].stage_description is required: a non-empty string. stages[1].expected_output is required: a non-empty string. stages[1].available_skills is required: an array.",
    );
    expect(refused.metadata?.code).toBe("INVALID_REQUEST");
    expect(
      JSON.parse(refused.metadata?.issues ?? "[]").map((issue: { path: string }) => issue.path),
    ).toEqual([
      "/stages/0/expected_output",
      "/stages/1/stage_description",
      "/stages/1/expected_output",
      "/stages/1/available_skills",
    ]);
    expect((await admin.listRuns()).runs).toEqual([]);
  });

  it("refuses a stage graph the service cannot run with INVALID_STAGES and its issues", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
    const refused = await refusal(send(client, stagedTask("bad-2", [draftStage, draftStage])));
    expect(refused.name).toBe("RequestMalformedError");
    expect(refused.metadata?.code).toBe("INVALID_STAGES");
    expect(refused.message).toBe(
      'The run\'s stages do not form a graph the service can run. Fix the issues listed. stages[1].id "draft" is used by an earlier stage. Give each stage its own id.',
    );
    expect((await admin.listRuns()).runs).toEqual([]);
  });

  it("answers 401 to a missing or wrong token, and CancelTask through the SDK's client cancels the run: GetTask answers it canceled", async () => {
    const { server } = await service();
    const answers = {
      missing: [
        undefined,
        "This endpoint needs a token: send Authorization: Bearer <token> (the admin token, or an agent token from POST /v1/runs/{run_id}/agents).",
      ],
      wrong: [
        "not-the-admin-token-0123456789",
        "The token is not valid. Use the admin token or an agent token as it was returned when the agent was added.",
      ],
    } as const;
    for (const [token, error] of Object.values(answers)) {
      const client = await a2aClientOf(server.url, token);
      const refused = await refusal(send(client, stagedTask("anyone", [draftStage])));
      expect(refused).toEqual({
        name: "Error",
        message: `HTTP error for SendMessage! Status: 401 Unauthorized. Response: ${JSON.stringify({ error, code: "UNAUTHORIZED" })}`,
        metadata: undefined,
      });
    }
    const client = await a2aClientOf(server.url, adminToken);
    const task = await send(client, stagedTask("cancel-1", [draftStage]));
    const canceled = await client.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await client.getTask({ tenant: "", id: task.id })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
  });
});

describe("tokens scoped to creating runs over A2A", () => {
  const clientTokens = ["client-one-token-0123456789", "client-two-token-0123456789"];

  it("a client token creates runs and reads its own tasks only; the admin reads them all; nothing else is open to it", async () => {
    const { server, admin } = await service({ a2aServer: { clientTokens } });
    const [one, two] = await Promise.all(
      clientTokens.map((token) => a2aClientOf(server.url, token)),
    );
    if (one === undefined || two === undefined) throw new Error("no clients");
    const task = await send(one, stagedTask("launch-1", [draftStage]));
    expect(task.id).toMatch(/^run_[0-7][0-9a-z]{25}\.[0-9a-f]{24}$/);
    expect(task.contextId).toBe(task.id);
    const runId = task.id.split(".")[0] ?? "";
    expect((await admin.getRun(runId)).goal).toBe("Launch Lumen, a reading lamp");
    expect((await one.getTask({ tenant: "", id: task.id })).id).toBe(task.id);
    // The same message id from another sender is another run.
    const other = await send(two, stagedTask("launch-1", [draftStage]));
    expect(other.id.split(".")[0]).not.toBe(runId);
    // Another token, or the bare run id: no such task (the same answer as for none at all).
    for (const [client, id] of [
      [two, task.id],
      [one, runId],
      [one, `${runId}.000000000000000000000000`],
    ] as const) {
      expect(await refusal(client.getTask({ tenant: "", id }))).toMatchObject({
        name: "TaskNotFoundError",
        message: `No task ${id}.`,
      });
    }
    // The admin reads a client's task by either id.
    const asAdmin = await a2aClientOf(server.url, adminToken);
    expect((await asAdmin.getTask({ tenant: "", id: task.id })).id).toBe(task.id);
    expect((await asAdmin.getTask({ tenant: "", id: runId })).id).toBe(runId);
    // The rest of the service does not know the token.
    const rest = await fetch(`${server.url}/v1/runs`, {
      headers: { Authorization: `Bearer ${clientTokens[0]}` },
    });
    expect([rest.status, (await rest.json()).code]).toEqual([401, "UNAUTHORIZED"]);
  });

  it("a client token cancels its own tasks only: another's task is not found, and goes on", async () => {
    const { server, admin } = await service({ a2aServer: { clientTokens } });
    const [one, two] = await Promise.all(
      clientTokens.map((token) => a2aClientOf(server.url, token)),
    );
    if (one === undefined || two === undefined) throw new Error("no clients");
    const task = await send(one, stagedTask("cancel-own-1", [draftStage]));
    const runId = task.id.split(".")[0] ?? "";
    expect(
      await refusal(two.cancelTask({ tenant: "", id: task.id, metadata: undefined })),
    ).toMatchObject({ name: "TaskNotFoundError", message: `No task ${task.id}.` });
    expect((await admin.getRun(runId)).status).toBe("active");
    const canceled = await one.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await admin.getRun(runId)).status).toBe("canceled");
  });

  it("TASK_CONTEXT_A2A_TOKENS sets them: comma-separated, 16+ visible characters each", () => {
    const env = { TASK_CONTEXT_ADMIN_TOKEN: adminToken };
    expect(
      serviceSettingsFromEnv({ ...env, TASK_CONTEXT_A2A_TOKENS: ` ${clientTokens.join(" , ")} ` })
        .a2aServer,
    ).toEqual({ clientTokens });
    expect(
      serviceSettingsFromEnv({ ...env, TASK_CONTEXT_A2A_TOKENS: "" }).a2aServer,
    ).toBeUndefined();
    expect(() =>
      serviceSettingsFromEnv({ ...env, TASK_CONTEXT_A2A_TOKENS: `${clientTokens[0]},short` }),
    ).toThrow(
      "TASK_CONTEXT_A2A_TOKENS: token 2 must be 16 or more visible ASCII characters without blanks (tokens are separated by commas).",
    );
  });
});

/** Every event of a stream. */
async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const event of stream) all.push(event);
  return all;
}
