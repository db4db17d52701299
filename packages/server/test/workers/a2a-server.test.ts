// The service as an A2A agent on workerd: the Worker of wrangler.jsonc (its router and run
// objects) driven by the official SDK's client through the Worker's own fetch — the task is a
// run in its Durable Object, its stream waits in the run's object for the run's events.

import { env, exports } from "cloudflare:workers";
import { TaskState } from "@a2a-js/sdk";
import { createServiceClient, type Fetch } from "@task-context/client";
import { describe, expect, it } from "vitest";
import {
  a2aClientOf,
  completeAsWriter,
  refusal,
  request,
  said,
  send,
  stagedTask,
} from "../a2a-server/a2a-client.ts";
import { taskStage } from "../contract/client.ts";

const url = "http://edge.test";
const workerFetch: Fetch = (input, init) => exports.default.fetch(input, init);
const adminToken = env.TASK_CONTEXT_ADMIN_TOKEN ?? "";

describe("the service as an A2A agent on workerd", () => {
  it("creates a run from a message, streams its updates while an agent completes it, GetTask reads it", async () => {
    const client = await a2aClientOf(url, adminToken, workerFetch);
    const admin = createServiceClient({ url, token: adminToken, fetch: workerFetch });
    const stream = client.sendMessageStream(request(stagedTask("edge-1", [taskStage("draft")])));
    const first = (await stream.next()).value;
    const task = first?.payload?.$case === "task" ? first.payload.value : undefined;
    if (task === undefined) throw new Error(`the stream began with ${JSON.stringify(first)}`);
    expect([task.id, task.contextId, task.status?.state]).toEqual([
      expect.stringMatching(/^run_[0-7][0-9a-z]{25}$/),
      task.id,
      TaskState.TASK_STATE_SUBMITTED,
    ]);
    const cases: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        const payload = event.payload;
        cases.push(
          payload?.$case === "statusUpdate"
            ? String(TaskState[payload.value.status?.state ?? 0])
            : String(payload?.$case),
        );
      }
    })();
    await completeAsWriter(url, admin, task.id, workerFetch);
    await reading;
    expect(cases).toEqual([
      "TASK_STATE_WORKING",
      "artifactUpdate",
      "TASK_STATE_WORKING",
      "TASK_STATE_COMPLETED",
    ]);
    const done = await client.getTask({ tenant: "", id: task.id });
    expect([done.status?.state, said(done.status), done.artifacts.map((a) => a.name)]).toEqual([
      TaskState.TASK_STATE_COMPLETED,
      ["The run completed its 1 stage(s)."],
      ["Launch post"],
    ]);
    // The same message again: the same task, no second run.
    expect((await send(client, stagedTask("edge-1", [taskStage("draft")]))).id).toBe(task.id);
  });

  it("cancels a task's run with CancelTask: the run's object answers it canceled, GetTask too", async () => {
    const client = await a2aClientOf(url, adminToken, workerFetch);
    const admin = createServiceClient({ url, token: adminToken, fetch: workerFetch });
    const task = await send(client, stagedTask("edge-cancel", [taskStage("draft")]));
    const canceled = await client.cancelTask({ tenant: "", id: task.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(await admin.getRun(task.id)).toMatchObject({
      status: "canceled",
      cancel_reason: "canceled by its A2A client (CancelTask)",
    });
    expect((await client.getTask({ tenant: "", id: task.id })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
  });

  it("refuses invalid stage data with the issues, and a wrong token with 401", async () => {
    const client = await a2aClientOf(url, adminToken, workerFetch);
    const refused = await refusal(send(client, stagedTask("edge-bad", [{ id: "draft" }])));
    expect([refused.name, refused.metadata?.code]).toEqual([
      "RequestMalformedError",
      "INVALID_REQUEST",
    ]);
    expect(
      JSON.parse(refused.metadata?.issues ?? "[]").map((issue: { path: string }) => issue.path),
    ).toEqual([
      "/stages/0/stage_description",
      "/stages/0/expected_output",
      "/stages/0/available_skills",
    ]);
    const response = await workerFetch(`${url}/a2a`, {
      method: "POST",
      headers: {
        Authorization: "Bearer wrong-token-0123456789",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "run_x" } }),
    });
    expect([response.status, response.headers.get("WWW-Authenticate")]).toEqual([
      401,
      'Bearer realm="task-context"',
    ]);
    expect(((await response.json()) as { code: string }).code).toBe("UNAUTHORIZED");
  });
});
