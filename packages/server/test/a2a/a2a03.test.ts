// A2A agents that still speak 0.3: a 0.3 card (`url`, `preferredTransport`, no
// `supportedInterfaces`) is read through the official SDK's 0.3 compatibility layer, and its work
// is sent over the SDK's 0.3 transports — to real 0.3 agents, the official SDK's server with its
// 0.3 layer answering 0.3 only (a 1.0 method is "Method not found"), and to hostile ones.
import type { IncomingMessage } from "node:http";
import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { a2a03CardJson } from "./a2a03-card.ts";
import {
  a2aHarness,
  deadLetterReasons,
  draftStage,
  events,
  lumenRun,
  ofType,
  refusal,
  reviewStage,
  settled,
} from "./harness.ts";
import { type RpcAnswer, type RpcRequest, rpcError } from "./hostile-agent.ts";

const adminToken = "a2a-03-admin-token-0123456789";
const { service, agent, hostile } = a2aHarness(adminToken, { a2aPollMs: 20 });

/** A 0.3 card of a hostile agent: its JSON-RPC interface at `{url}/`. */
const hostileA2a03Card = (card: Record<string, unknown>, url: string) => {
  const { supportedInterfaces: _, ...rest } = card;
  return { ...rest, protocolVersion: "0.3.0", url: `${url}/`, preferredTransport: "JSONRPC" };
};

describe.each([
  ["JSON-RPC, streaming", "JSONRPC", true],
  ["JSON-RPC, tasks/get", "JSONRPC", false],
  ["HTTP+JSON, streaming", "HTTP+JSON", true],
  ["HTTP+JSON, tasks/get", "HTTP+JSON", false],
] as const)("an A2A 0.3 agent over %s", (_name, transport, streaming) => {
  it("is registered as 0.3 and does a draft and its review, each one A2A task", async () => {
    const { admin } = await service();
    const writer = await agent({
      name: "Writer",
      skills: [{ id: "copywriting" }],
      streaming,
      a2a03: { transport },
    });
    const critic = await agent({
      name: "Critic",
      skills: [{ id: "review", tags: ["reviewing"] }],
      streaming,
      a2a03: { transport },
    });
    const run = await admin.createRun(lumenRun({ stages: [draftStage, reviewStage] }));
    const added = await admin.addAgent(run.run_id, { tag: "writer", a2a: { url: writer.url } });
    expect(added.a2a).toEqual({
      url: writer.url,
      agent_name: "Writer",
      stages: ["draft"],
      protocol_version: "0.3.0",
      streaming,
      concurrency: 1,
      card_signature: { verified: false },
    });
    await admin.addAgent(run.run_id, { tag: "critic", a2a: { url: critic.url } });
    const interfaceUrl = transport === "JSONRPC" ? `${writer.url}/` : `${writer.url}/rest`;
    const [listed] = (await admin.listAgents(run.run_id)).agents;
    expect(listed?.a2a).toMatchObject({
      interface_url: interfaceUrl,
      protocol_binding: transport,
      protocol_version: "0.3.0",
    });
    expect((await settled(admin, run.run_id)).status).toBe("completed");

    expect(writer.tasks.map((task) => [task.item.stage_id, task.attempt])).toEqual([["draft", 1]]);
    const [draft] = writer.tasks;
    expect(draft?.message.messageId).toBe(`${run.run_id}.${draft?.item.id}.1`);
    expect(draft?.message.contextId).toBe(run.run_id);
    expect(draft?.item.goal).toBe("Launch Lumen, a reading lamp");
    expect(draft?.text).toContain("[Task Context]\nGoal: Launch Lumen, a reading lamp");
    const [review] = critic.tasks;
    expect(review?.item.kind).toBe("review");
    expect(review?.text).toContain("# draft by Writer");
    const all = await events(admin, run.run_id);
    expect(ofType(all, "work_item.completed")).toHaveLength(2);
    const feedback = ofType(all, "review.feedback");
    expect(feedback.map((event) => event.feedback.verdict)).toEqual(["approve"]);
  });
});

describe("an A2A 0.3 agent", () => {
  it("answers a 1.0 SendMessage with Method not found: it speaks 0.3 only", async () => {
    const writer = await agent({
      name: "Writer",
      skills: [{ id: "copywriting" }],
      a2a03: { transport: "JSONRPC" },
    });
    const answer = await fetch(`${writer.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendMessage", params: {} }),
    });
    expect(((await answer.json()) as { error: { code: number } }).error.code).toBe(-32601);
  });

  it("fails a task: the attempt's reason is what it said, then a dead letter", async () => {
    const { admin } = await service();
    const broke = await agent({
      name: "Broke",
      skills: [{ id: "copywriting" }],
      a2a03: { transport: "JSONRPC" },
      behaviour: async (task) => task.finish(TaskState.TASK_STATE_FAILED, "The lamp is sold out."),
    });
    const run = await admin.createRun(lumenRun({ max_attempts: 2 }));
    await admin.addAgent(run.run_id, { tag: "broke", a2a: { url: broke.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    expect(await deadLetterReasons(admin, run.run_id)).toEqual([
      [1, "failed", "The A2A task ended failed: The lamp is sold out."],
      [2, "failed", "The A2A task ended failed: The lamp is sold out."],
    ]);
  });

  it("behind a bearer token (its card's OpenAPI-form scheme): refused without it, served with it", async () => {
    const { admin } = await service();
    const token = "s3cret-bearer-03-Kp4mW8";
    const refused: IncomingMessage[] = [];
    const locked = await agent({
      name: "Locked",
      skills: [{ id: "copywriting" }],
      a2a03: { transport: "JSONRPC" },
      security: {
        schemes: {
          bearer: {
            scheme: {
              $case: "httpAuthSecurityScheme",
              value: { description: "", scheme: "bearer", bearerFormat: "" },
            },
          },
        },
        requirements: [{ schemes: { bearer: { list: [] } } }],
        admits: (request) => {
          if (request.headers.authorization === `Bearer ${token}`) return true;
          refused.push(request);
          return false;
        },
      },
    });
    const run = await admin.createRun(lumenRun());
    const error = await refusal(
      admin.addAgent(run.run_id, { tag: "locked", a2a: { url: locked.url } }),
    );
    expect([error.code, error.issues]).toEqual([
      "AGENT_CREDENTIALS_MISSING",
      [
        {
          path: "/securityRequirements/0",
          message:
            'The card asks for credentials of "bearer"; a2a.credentials has none for "bearer" (an HTTP Bearer scheme: give { "bearer_token": "…" }).',
        },
      ],
    ]);
    const added = await admin.addAgent(run.run_id, {
      tag: "locked",
      a2a: { url: locked.url, credentials: { bearer: { bearer_token: token } } },
    });
    expect(added.a2a?.protocol_version).toBe("0.3.0");
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    expect(refused).toEqual([]);
    expect(locked.tasks).toHaveLength(1);
  });

  it("is spoken to in 1.0 when its card lists a 1.0 interface beside the 0.3 one", async () => {
    const { admin } = await service();
    const both = await agent({
      name: "Both",
      skills: [{ id: "copywriting" }],
      card: (card) => ({
        ...card,
        supportedInterfaces: [
          {
            ...card.supportedInterfaces[0],
            url: `${card.supportedInterfaces[0]?.url}legacy`,
            protocolVersion: "0.3",
          },
          ...card.supportedInterfaces,
        ],
      }),
    });
    const run = await admin.createRun(lumenRun());
    const added = await admin.addAgent(run.run_id, { tag: "both", a2a: { url: both.url } });
    expect(added.a2a?.protocol_version).toBe("1.0");
    const [listed] = (await admin.listAgents(run.run_id)).agents;
    expect(listed?.a2a?.interface_url).toBe(`${both.url}/`);
    expect((await settled(admin, run.run_id)).status).toBe("completed");
  });
});

describe("a 0.3 card the service cannot serve", () => {
  it.each([
    [
      "an older protocolVersion",
      { protocolVersion: "0.2.5" },
      [
        {
          path: "/protocolVersion",
          message:
            'protocolVersion must be "0.3.0" or another 0.3.x (a card without supportedInterfaces is an A2A 0.3 card; the service speaks A2A 1.0 and 0.3), not the string "0.2.5".',
        },
      ],
      "lacks what the service needs",
    ],
    [
      "gRPC only",
      { preferredTransport: "GRPC", additionalInterfaces: [] },
      [
        {
          path: "/preferredTransport",
          message: "The service sends A2A messages over JSONRPC or HTTP+JSON, not GRPC.",
        },
      ],
      "offers no interface the service speaks",
    ],
  ])("%s: refused, naming the 0.3 field", async (_name, change, issues, problem) => {
    const { admin } = await service();
    const old = await agent({
      name: "Old",
      skills: [{ id: "copywriting" }],
      a2a03: { transport: "JSONRPC" },
      card: (card) => ({ ...a2a03CardJson(card), ...change }),
    });
    const run = await admin.createRun(lumenRun());
    const error = await refusal(admin.addAgent(run.run_id, { tag: "old", a2a: { url: old.url } }));
    expect([error.status, error.code, error.issues]).toEqual([422, "AGENT_CARD_INVALID", issues]);
    expect(error.message).toContain(problem);
  });
});

describe("a hostile A2A 0.3 agent", () => {
  const task03 = (state: string) => ({
    kind: "task",
    id: "task-1",
    contextId: "run",
    status: { state },
  });
  const states =
    '(it acts on submitted, working, input-required, completed, canceled, failed, rejected, auth-required; not on "unknown", a state A2A 0.3 does not name, or a status that is not an object)';
  /** Answers message/send with `sent`, and tasks/get with `polled`. */
  const answers =
    (sent: unknown, polled: unknown = null) =>
    (request: RpcRequest): RpcAnswer => ({
      result: request.method === "message/send" ? sent : polled,
    });
  it.each([
    [
      "a 1.0 answer ({ task } without a kind)",
      answers({ task: { id: "task-1", status: { state: "TASK_STATE_COMPLETED" } } }),
      "The A2A agent answered message/send with something that is not an A2A response (Unexpected v0.3 message/send result kind: undefined).",
    ],
    [
      "a task whose status is not an object",
      answers({ ...task03("submitted"), status: "done" }),
      `The A2A agent answered message/send with a task ("task-1") whose status.state the service cannot act on ${states}.`,
    ],
    [
      "a task without an id",
      answers({ ...task03("submitted"), id: 7 }),
      "The A2A agent answered message/send with a task without an id.",
    ],
    [
      "tasks/get answered with a task in a 1.0 state",
      answers(task03("submitted"), task03("TASK_STATE_COMPLETED")),
      `The A2A agent answered tasks/get with a task ("task-1") whose status.state the service cannot act on ${states}.`,
    ],
    [
      "a JSON-RPC error to tasks/get (-32001, task not found)",
      (request: RpcRequest): RpcAnswer =>
        request.method === "message/send"
          ? { result: task03("submitted") }
          : rpcError(request, -32001, "Task not found"),
      "The A2A agent answered tasks/get with JSON-RPC error -32001: Task not found.",
    ],
    [
      "a message whose role is not user or agent",
      answers({ kind: "message", messageId: "m-1", role: "bot", parts: [] }),
      'The A2A agent answered message/send with something that is not an A2A response (message.role must be "user" or "agent").',
    ],
  ])("%s: the attempt fails with a reason", async (_name, answer, reason) => {
    const { admin } = await service();
    const rude = await hostile({ card: hostileA2a03Card, answer });
    const run = await admin.createRun(lumenRun({ max_attempts: 1 }));
    const added = await admin.addAgent(run.run_id, { tag: "rude", a2a: { url: rude.url } });
    expect(added.a2a?.protocol_version).toBe("0.3.0");
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    expect(rude.requests[0]?.method).toBe("message/send");
    expect(await deadLetterReasons(admin, run.run_id)).toEqual([[1, "failed", reason]]);
  });
});
