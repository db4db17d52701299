// Hostile A2A agents against the Node service: a task rejected, an artifact that is not one,
// completed twice, a stream that breaks; an agent that answers with an HTTP error, a JSON-RPC
// error or something that is not an A2A answer, to SendMessage or to GetTask; an agent that is
// gone. Each attempt ends as a polling agent's would — a clear failure, a retry, a dead letter,
// never a lost or doubled completion — and its reason says what the agent answered, in the
// item's events, in the dead letter and on the run page.
import { TaskState } from "@a2a-js/sdk";
import { createServiceClient } from "@task-context/client";
import { describe, expect, it } from "vitest";
import { parsePage, textOf } from "../contract/html.ts";
import { completeNextByPolling } from "./a2a-agent.ts";
import {
  a2aHarness,
  cues,
  deadLetterReasons,
  draftStage,
  events,
  leaseEnd,
  lumenRun,
  ofType,
  settled,
  untilEvent,
  waitFor,
} from "./harness.ts";
import { type RpcAnswer, type RpcRequest, rpcError, taskJson } from "./hostile-agent.ts";

const adminToken = "a2a-hostile-admin-token-0123456789";
const { service, agent, hostile } = a2aHarness(adminToken, { a2aPollMs: 20 });

const oneItem = (maxAttempts: number) => lumenRun({ max_attempts: maxAttempts });

/** A polled agent whose SendMessage starts a task, and whose GetTask answers `getTask`. */
const polledTask =
  (getTask: (request: RpcRequest) => RpcAnswer) =>
  (request: RpcRequest): RpcAnswer =>
    request.method === "SendMessage"
      ? { result: { task: taskJson("task-1", "TASK_STATE_SUBMITTED") } }
      : getTask(request);

describe("a hostile A2A agent", () => {
  it("lies about its skills (rejects every task): each attempt fails with why, then a dead letter", async () => {
    const { admin } = await service();
    const liar = await agent({
      name: "Liar",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => task.finish(TaskState.TASK_STATE_REJECTED, "I only paint."),
    });
    const run = await admin.createRun(oneItem(2));
    await admin.addAgent(run.run_id, { tag: "liar", a2a: { url: liar.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    expect(await deadLetterReasons(admin, run.run_id)).toEqual([
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
    const run = await admin.createRun(oneItem(3));
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
    const run = await admin.createRun(oneItem(3));
    await admin.addAgent(run.run_id, { tag: "twice", a2a: { url: twice.url } });
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    const all = await events(admin, run.run_id);
    expect(ofType(all, "work_item.completed")).toHaveLength(1);
    expect(ofType(all, "artifact.created")).toHaveLength(1);
  });

  it("breaks its stream after the task exists: the task is polled with GetTask, and completes", async () => {
    const test = await service();
    const { admin, clock } = test;
    const working = cues();
    const done = cues();
    const flaky = await agent({
      name: "Flaky",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => {
        await working.wait();
        task.working();
        await done.wait();
        task.complete();
      },
    });
    const run = await admin.createRun(oneItem(1));
    await admin.addAgent(run.run_id, { tag: "flaky", a2a: { url: flaky.url } });
    const [task] = await waitFor(
      "the task",
      () => flaky.tasks,
      (tasks) => tasks.length === 1,
    );
    // Half a lease on, its working renews the lease: the service has its task from the stream.
    clock.advance(30_000);
    const renewed = clock.now() + 60_000;
    working.open();
    await waitFor(
      "the lease renewed",
      () => leaseEnd(test, run.run_id, task?.item.id ?? "", adminToken),
      (end) => end === renewed,
    );
    flaky.dropConnections();
    done.open();
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    const all = await events(admin, run.run_id);
    expect(ofType(all, "work_item.completed").map((event) => event.attempt)).toEqual([1]);
    expect(ofType(all, "work_item.failed")).toEqual([]);
  });
});

describe("what an agent answered is the attempt's reason", () => {
  it("HTTP 401 to SendMessage: in the item's events, the dead letter and the run page", async () => {
    const { server, admin } = await service();
    const locked = await hostile({
      answer: () => ({ status: 401, statusText: "Unauthorized", body: '{"error":"who are you"}' }),
    });
    const run = await admin.createRun(oneItem(1));
    await admin.addAgent(run.run_id, { tag: "locked", a2a: { url: locked.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    const reason = "The A2A agent answered SendMessage with HTTP 401 Unauthorized.";
    const failed = ofType(await events(admin, run.run_id), "work_item.failed");
    expect(failed.map((event) => [event.attempt, event.reason])).toEqual([[1, reason]]);
    expect(await deadLetterReasons(admin, run.run_id)).toEqual([[1, "failed", reason]]);
    const response = await fetch(`${server.url}/runs/${run.run_id}`, {
      headers: { authorization: `Bearer ${adminToken}`, accept: "text/html" },
    });
    const page = textOf(parsePage(await response.text()));
    expect(page).toContain(`Attempt 1 by locked: failed — ${reason}`);
    expect(page).toContain(`reason ${reason}`);
  });

  it.each([
    [
      "a JSON-RPC error to SendMessage (-32601, a method it does not know)",
      (request: RpcRequest) => rpcError(request, -32601, "Method not found: SendMessage"),
      "The A2A agent answered SendMessage with JSON-RPC error -32601: Method not found: SendMessage.",
    ],
    [
      "a JSON-RPC error with an HTTP error status",
      (request: RpcRequest) => ({
        ...(rpcError(request, -32603, "Internal error") as { body: string }),
        status: 500,
        statusText: "Internal Server Error",
      }),
      "The A2A agent answered SendMessage with JSON-RPC error -32603 (HTTP 500 Internal Server Error): Internal error.",
    ],
    [
      "an HTML page to SendMessage",
      () => ({ status: 200, body: "<html>hello</html>", contentType: "text/html" }),
      `The A2A agent answered SendMessage with something that is not an A2A response (Unexpected token '<', "<html>hello</html>" is not valid JSON).`,
    ],
    [
      "JSON that is not JSON-RPC to SendMessage",
      () => ({ status: 200, body: '{"ok":true}' }),
      "The A2A agent answered SendMessage with something that is not an A2A response (Invalid JSON-RPC response for SendMessage: expected 'jsonrpc' to be exactly '2.0', got undefined.).",
    ],
    [
      "HTTP 404 to GetTask",
      polledTask(() => ({ status: 404, statusText: "Not Found", body: "" })),
      "The A2A agent answered GetTask with HTTP 404 Not Found.",
    ],
    [
      "a JSON-RPC error to GetTask (-32001, task not found)",
      polledTask((request) => rpcError(request, -32001, "Task not found")),
      "The A2A agent answered GetTask with JSON-RPC error -32001: Task not found.",
    ],
    [
      "another task to GetTask",
      polledTask(() => ({ result: taskJson("task-2", "TASK_STATE_WORKING") })),
      "The A2A agent answered GetTask for task task-1 with another task, task-2.",
    ],
  ])("%s", async (_name, answer, reason) => {
    const { admin } = await service();
    const rude = await hostile({ answer });
    const run = await admin.createRun(oneItem(1));
    await admin.addAgent(run.run_id, { tag: "rude", a2a: { url: rude.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    expect(await deadLetterReasons(admin, run.run_id)).toEqual([[1, "failed", reason]]);
  });

  it("nothing, once it is gone: could not be reached, with why", async () => {
    const { server, admin } = await service();
    const gone = await agent({ name: "Gone", skills: [{ id: "publishing" }] });
    const run = await admin.createRun({
      ...oneItem(1),
      stages: [
        draftStage,
        {
          id: "publish",
          stage_description: "Publish the post",
          expected_output: "A URL",
          available_skills: ["publishing"],
        },
      ],
    });
    // It takes the second stage only: it is gone before anything is on offer to it.
    const added = await admin.addAgent(run.run_id, { tag: "gone", a2a: { url: gone.url } });
    expect(added.a2a?.stages).toEqual(["publish"]);
    await gone.close();
    const writer = await admin.addAgent(run.run_id, { tag: "writer" });
    await completeNextByPolling(createServiceClient({ url: server.url, token: writer.token }));
    const failed = await untilEvent(admin, run.run_id, "work_item.failed");
    const port = new URL(gone.url).port;
    expect([failed.agent_tag, failed.reason]).toEqual([
      "gone",
      `The A2A agent could not be reached (SendStreamingMessage): fetch failed: connect ECONNREFUSED 127.0.0.1:${port}.`,
    ]);
  });
});
