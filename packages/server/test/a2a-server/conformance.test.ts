// The service as an A2A agent, checked against the server requirements of the A2A 1.0
// specification (a2aproject/A2A, docs/specification.md; specification/a2a.proto is normative),
// section by section, over its JSON-RPC binding on loopback: raw JSON-RPC where the requirement is
// about the wire, the official SDK's client where it is about behaviour. The A2A test kit
// (a2aproject/a2a-tck) cannot run here (see docs/a2a.md, "Conformance"); this suite stands in.
import { AgentCard, TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import type { createServiceClient } from "../../src/client.ts";
import { a2aHarness, draftStage } from "../a2a/harness.ts";
import { a2aClientOf, completeAsWriter, refusal, said, send, stagedTask } from "./a2a-client.ts";

const adminToken = "a2a-conformance-admin-token-0123456789";
const { service } = a2aHarness(adminToken);

/** The JSON of a task-creating message, for raw requests. */
const messageJson = (messageId: string, fields: Record<string, unknown> = {}) => ({
  messageId,
  role: "ROLE_USER",
  parts: [{ text: "Launch Lumen" }, { data: { stages: [draftStage] } }],
  ...fields,
});

/** A JSON-RPC answer's body, as these tests read it. */
interface JsonRpcBody {
  id?: unknown;
  error?: { code: number; message: string };
  result?: { task?: { id: string } };
}

/** A raw JSON-RPC call to `/a2a` with the admin token and `A2A-Version: 1.0` (unless overridden). */
async function rpc(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | null; body: JsonRpcBody }> {
  const response = await fetch(`${url}/a2a`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${adminToken}`,
      "Content-Type": "application/json",
      "A2A-Version": "1.0",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const type = response.headers.get("Content-Type");
  const text = await response.text();
  return {
    status: response.status,
    type,
    body: type?.startsWith("application/json") ? JSON.parse(text) : text,
  };
}

/** The error of a JSON-RPC answer: its code and message. */
const errorOf = (answer: { body: JsonRpcBody }) => ({
  code: answer.body.error?.code,
  message: answer.body.error?.message,
});

describe("A2A 1.0 server requirements, JSON-RPC binding", () => {
  it("§8.2, §8.6.1: the card is at /.well-known/agent-card.json, valid, with Cache-Control and an ETag that answers 304", async () => {
    const { server } = await service();
    const response = await fetch(`${server.url}/.well-known/agent-card.json`);
    const json = await response.json();
    // Every field the proto requires, read back by the SDK's own decoder unchanged.
    expect(AgentCard.toJSON(AgentCard.fromJSON(json))).toEqual(json);
    for (const field of ["name", "description", "supportedInterfaces", "version", "capabilities"]) {
      expect(json[field], field).toBeDefined();
    }
    expect([json.defaultInputModes, json.defaultOutputModes]).toEqual([
      ["text/plain", "application/json"],
      ["text/markdown", "application/json"],
    ]);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=3600");
    const etag = response.headers.get("ETag") ?? "";
    expect(etag).toMatch(/^W\/"[0-9a-f]{16}"$/);
    const again = await fetch(`${server.url}/.well-known/agent-card.json`, {
      headers: { "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
  });

  it("§9.5: invalid JSON is -32700, a request that is not JSON-RPC 2.0 is -32600, an unknown method -32601", async () => {
    const { server } = await service();
    const parse = await rpc(server.url, "{ not json");
    expect([parse.status, parse.body]).toEqual([
      400,
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Invalid JSON payload." } },
    ]);
    // The SDK's transport answers these -32602; the route answers them first.
    for (const body of [
      { jsonrpc: "1.0", id: 1, method: "GetTask" },
      [],
      { jsonrpc: "2.0", id: 1.5, method: "GetTask" },
    ]) {
      const invalid = await rpc(server.url, body);
      expect(errorOf(invalid)).toEqual({
        code: -32600,
        message:
          'Request payload validation error: send a JSON-RPC 2.0 request object ({ "jsonrpc": "2.0", "id", "method", "params" }).',
      });
    }
    const unknown = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 2,
      method: "tasks/explode",
      params: {},
    });
    expect([unknown.body.id, errorOf(unknown).code]).toEqual([2, -32601]);
  });

  it("§3.3.2, §7.4: a request without valid credentials is refused with 401 and a Bearer challenge", async () => {
    const { server } = await service();
    for (const authorization of [undefined, "Bearer not-the-token-0123456789"]) {
      const response = await fetch(`${server.url}/a2a`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          ...(authorization === undefined ? {} : { Authorization: authorization }),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }),
      });
      expect([response.status, response.headers.get("WWW-Authenticate")]).toEqual([
        401,
        'Bearer realm="task-context"',
      ]);
      expect((await response.json()).code).toBe("UNAUTHORIZED");
    }
  });

  it("§3.6.2: an A2A-Version the card does not declare is -32009 VersionNotSupported", async () => {
    const { server } = await service();
    const answer = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "GetTask",
        params: { id: "run_00000000000000000000000000" },
      },
      { "A2A-Version": "9.9" },
    );
    expect(errorOf(answer).code).toBe(-32009);
  });

  it("§3.1.3, §3.1.5, §3.3.2: an unknown task is -32001 for GetTask, CancelTask and SubscribeToTask", async () => {
    const { server } = await service();
    for (const method of ["GetTask", "CancelTask", "SubscribeToTask"]) {
      for (const id of ["run_00000000000000000000000000", "no-such-task"]) {
        const answer = await rpc(server.url, { jsonrpc: "2.0", id: 7, method, params: { id } });
        expect([method, errorOf(answer)]).toEqual([
          method,
          { code: -32001, message: `No task ${id}.` },
        ]);
      }
    }
  });

  it("§3.3.4: push notification methods are -32003 and GetExtendedAgentCard -32004, as the card's capabilities say", async () => {
    const { server } = await service();
    const task = (
      await rpc(server.url, {
        jsonrpc: "2.0",
        id: 1,
        method: "SendMessage",
        params: { message: messageJson("push-1"), configuration: { returnImmediately: true } },
      })
    ).body.result?.task;
    if (task === undefined) throw new Error("SendMessage answered no task");
    const push = {
      CreateTaskPushNotificationConfig: { taskId: task.id, url: "https://example.com/hook" },
      GetTaskPushNotificationConfig: { taskId: task.id, id: "1" },
      ListTaskPushNotificationConfigs: { taskId: task.id },
      DeleteTaskPushNotificationConfig: { taskId: task.id, id: "1" },
    };
    for (const [method, params] of Object.entries(push)) {
      const answer = await rpc(server.url, { jsonrpc: "2.0", id: 2, method, params });
      expect([method, errorOf(answer).code]).toEqual([method, -32003]);
    }
    const extended = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 3,
      method: "GetExtendedAgentCard",
    });
    expect(errorOf(extended).code).toBe(-32004);
  });

  it("§3.2.2: SendMessage blocks until the task ends by default, and answers at once with returnImmediately", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
    const immediate = await send(client, stagedTask("block-0", [draftStage]));
    expect(immediate.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);

    let answered = false;
    const blocking = send(client, stagedTask("block-1", [draftStage]), false).then((task) => {
      answered = true;
      return task;
    });
    const runId = await waitForRun(admin, 2);
    expect(answered).toBe(false);
    await completeAsWriter(server.url, admin, runId);
    const task = await blocking;
    expect([task.id, task.status?.state, task.artifacts.length]).toEqual([
      runId,
      TaskState.TASK_STATE_COMPLETED,
      1,
    ]);
  });

  it("§3.1.2, §9.4.2: a stream is text/event-stream, begins with the task, and closes when the task ends", async () => {
    const { server, admin } = await service();
    const opening = fetch(`${server.url}/a2a`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${adminToken}`,
        "Content-Type": "application/json",
        "A2A-Version": "1.0",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "s-1",
        method: "SendStreamingMessage",
        params: { message: messageJson("sse-1") },
      }),
    });
    const runId = await waitForRun(admin, 1);
    await completeAsWriter(server.url, admin, runId);
    const response = await opening;
    expect([response.status, response.headers.get("Content-Type")]).toEqual([
      200,
      "text/event-stream",
    ]);
    const frames = (await response.text()).split("\n\n").filter((frame) => frame !== "");
    const results = frames.map((frame) => {
      expect(frame.startsWith("data: ")).toBe(true);
      const answer = JSON.parse(frame.slice("data: ".length));
      expect([answer.jsonrpc, answer.id]).toEqual(["2.0", "s-1"]);
      return answer.result;
    });
    expect(Object.keys(results[0] ?? {})).toEqual(["task"]);
    expect(results[0].task.id).toBe(runId);
    expect(results.at(-1)?.statusUpdate?.status?.state).toBe("TASK_STATE_COMPLETED");
    expect(results.slice(1).map((result) => Object.keys(result)[0])).toEqual([
      "statusUpdate",
      "artifactUpdate",
      "statusUpdate",
      "statusUpdate",
    ]);
  });

  it("keeps a quiet stream open with SSE comments, which the SDK's client skips", async () => {
    const { server, admin } = await service({ limits: { rateLimit: false, keepAliveMs: 5 } });
    const client = await a2aClientOf(server.url, adminToken);
    const task = await send(client, stagedTask("quiet-1", [draftStage]));
    const response = await fetch(`${server.url}/a2a`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${adminToken}`,
        "Content-Type": "application/json",
        "A2A-Version": "1.0",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SubscribeToTask",
        params: { id: task.id },
      }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": keep-alive\n\n")) {
      text += decoder.decode((await reader.read()).value, { stream: true });
    }
    expect(text.startsWith("data: ")).toBe(true);
    await reader.cancel();
    // The SDK's client, on a stream with comments between its events, sees the events only.
    const stream = client.resubscribeTask({ tenant: "", id: task.id });
    expect((await stream.next()).value?.payload?.$case).toBe("task");
    await completeAsWriter(server.url, admin, task.id);
    const cases: string[] = [];
    for await (const event of stream) cases.push(String(event.payload?.$case));
    expect(cases).toEqual(["statusUpdate", "artifactUpdate", "statusUpdate", "statusUpdate"]);
  });

  it("§3.1.6: SubscribeToTask begins with the task as it is, and is -32004 for an ended task", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
    const task = await send(client, stagedTask("sub-1", [draftStage]));
    const stream = client.resubscribeTask({ tenant: "", id: task.id });
    const first = (await stream.next()).value;
    expect(first?.payload?.$case === "task" ? first.payload.value.id : undefined).toBe(task.id);
    await completeAsWriter(server.url, admin, task.id);
    const states: TaskState[] = [];
    for await (const event of stream) {
      if (event.payload?.$case === "statusUpdate")
        states.push(event.payload.value.status?.state ?? 0);
    }
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const ended = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "SubscribeToTask",
      params: { id: task.id },
    });
    expect(errorOf(ended)).toEqual({
      code: -32004,
      message: `Task ${task.id} has ended: read it with GetTask instead of subscribing.`,
    });
  });

  it("§3.1.5: CancelTask cancels the task's run: the task canceled, an open stream ends with it, GetTask says so; again answers the same", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
    const task = await send(client, stagedTask("cancel-1", [draftStage]));
    const stream = client.resubscribeTask({ tenant: "", id: task.id });
    expect((await stream.next()).value?.payload?.$case).toBe("task");
    const canceled = await client.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect([canceled.id, canceled.status?.state]).toEqual([task.id, TaskState.TASK_STATE_CANCELED]);
    const run = await admin.getRun(task.id);
    expect(run).toMatchObject({
      status: "canceled",
      cancel_reason: "canceled by its A2A client (CancelTask)",
    });
    expect(said(canceled.status)).toEqual([
      `The run was canceled at ${run.canceled_at} (reason: canceled by its A2A client (CancelTask)).`,
    ]);
    const states: TaskState[] = [];
    for await (const event of stream) {
      if (event.payload?.$case === "statusUpdate") {
        states.push(event.payload.value.status?.state ?? 0);
      }
    }
    expect(states).toEqual([TaskState.TASK_STATE_CANCELED]);
    expect((await client.getTask({ tenant: "", id: task.id })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    const again = await client.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect(again).toEqual(canceled);
  });

  it("§3.1.5: CancelTask of a completed task is -32002 TaskNotCancelable, and the run stays completed", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
    const task = await send(client, stagedTask("cancel-2", [draftStage]));
    await completeAsWriter(server.url, admin, task.id);
    const answer = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "CancelTask",
      params: { id: task.id },
    });
    expect(errorOf(answer)).toEqual({
      code: -32002,
      message: `Task ${task.id} has completed; a completed task cannot be canceled.`,
    });
    expect((await admin.getRun(task.id)).status).toBe("completed");
  });

  it("§3.3.1: SendMessage with a messageId sent before answers the same task, creating nothing", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
    const first = await send(client, stagedTask("same-1", [draftStage]));
    const second = await send(client, stagedTask("same-1", [draftStage]));
    expect(second.id).toBe(first.id);
    expect((await admin.listRuns()).runs.length).toBe(1);
  });

  it("§3.4.1, §3.4.2: a client contextId is refused, a taskId of an existing task is -32004, of none -32001", async () => {
    const { server, admin } = await service();
    const client = await a2aClientOf(server.url, adminToken);
    const withContext = stagedTask("ctx-1", [draftStage]);
    withContext.contextId = "my-context";
    expect(await refusal(send(client, withContext))).toMatchObject({
      name: "RequestMalformedError",
      message:
        "The service names each task's context itself (its run id): send the message without contextId.",
    });
    const task = await send(client, stagedTask("ctx-2", [draftStage]));
    const followUp = stagedTask("ctx-3", [draftStage]);
    followUp.taskId = task.id;
    expect((await refusal(send(client, followUp))).name).toBe("UnsupportedOperationError");
    followUp.taskId = "run_00000000000000000000000000";
    expect((await refusal(send(client, followUp))).name).toBe("TaskNotFoundError");
    expect((await admin.listRuns()).runs.length).toBe(1);
  });

  it("§3.2.6 / §9.2: a request without A2A-Version is taken as 0.3, which the card does not declare: -32009", async () => {
    const { server } = await service();
    const answer = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: messageJson("v-1") } },
      { "A2A-Version": "" },
    );
    expect(errorOf(answer).code).toBe(-32009);
  });
});

/** The newest run once the service has `count` of them (a message creates its run first). */
async function waitForRun(
  admin: ReturnType<typeof createServiceClient>,
  count: number,
): Promise<string> {
  const end = Date.now() + 20_000;
  for (;;) {
    const { runs } = await admin.listRuns();
    if (runs.length >= count) return runs[0]?.run_id ?? "";
    if (Date.now() > end) throw new Error(`Gave up waiting for ${count} run(s).`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
