// A real `wrangler dev` (local, no account): the Worker as a user configures it
// (test/smoke/wrangler.jsonc: no aliases) and wrangler bundles it from this package's built
// ./workers entry, on wrangler's own workerd with the production compatibility flags, over a
// socket. Its entry is test/smoke/worker.ts (the entry re-exported, plus a code-generation probe).
import { validate } from "@task-context/protocols";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startA2aAgent } from "../a2a/a2a-agent.ts";
import {
  type BodyShape,
  earlyErrorFixture,
  earlyErrors,
  oneConnectionAgent,
  sendWithAgent,
  sendWithFetch,
} from "../node/early-errors.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

const adminToken = "smoke-admin-token-0123456789abcdef";
const admin = { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" };

/** A run of one stage, `draft`, for an agent with `write_file`. */
const edgeRun = (fields: object = {}) => ({
  goal: "Ship the edge service",
  constraints: [],
  stages: [
    {
      id: "draft",
      stage_description: "Write it",
      expected_output: "Markdown",
      available_skills: ["write_file"],
    },
  ],
  ...fields,
});

describe("wrangler dev", () => {
  let wrangler: WranglerDev | undefined;
  let base = "";

  beforeAll(async () => {
    wrangler = await startWranglerDev("test/smoke/wrangler.jsonc", {
      TASK_CONTEXT_ADMIN_TOKEN: adminToken,
    });
    base = wrangler.url;
  }, 120_000);

  afterAll(() => wrangler?.stop());

  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, init);
    const text = await response.text();
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
  };

  it("creates a run, completes its item and validates a schema", async () => {
    const created = await call("/v1/runs", {
      method: "POST",
      headers: admin,
      body: JSON.stringify(edgeRun()),
    });
    expect(created.status).toBe(201);
    const runId: string = created.body.run_id;
    const added = await call(`/v1/runs/${runId}/agents`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ tag: "writer" }),
    });
    const agent = { Authorization: `Bearer ${added.body.token}` };
    const claimed = await call("/v1/inbox/claim-next", { method: "POST", headers: agent });
    expect(claimed.status).toBe(200);
    const done = await call(`/v1/work-items/${claimed.body.work_item.id}/complete`, {
      method: "POST",
      headers: { ...agent, "Content-Type": "application/json" },
      body: JSON.stringify({
        attempt: 1,
        artifact: { media_type: "text/markdown", content: "# Done" },
      }),
    });
    expect([done.status, done.body.status]).toEqual([200, "completed"]);
    const run = await call(`/v1/runs/${runId}`, { headers: admin });
    expect(run.body.status).toBe("completed");
    const artifact = await call(`/v1/runs/${runId}/artifacts/${done.body.artifact_id}`, {
      headers: admin,
    });
    expect(artifact.body.content).toBe("# Done");

    const valid = await call("/v1/validate/work-item.v1", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(claimed.body.work_item),
    });
    expect(valid).toEqual({ status: 200, body: { valid: true, issues: [] } });
    const invalid = await call("/v1/validate/work-item.v1", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ kind: "chore" }),
    });
    expect(invalid.body).toEqual(validate("work-item.v1", { kind: "chore" }));
    expect(invalid.body.valid).toBe(false);
  });

  it("is an A2A agent: its card, and a message that creates a run, whose A2A SDK the isolate loads on the first request", async () => {
    const card = await call("/.well-known/agent-card.json");
    expect([card.status, card.body.supportedInterfaces]).toEqual([
      200,
      [{ url: `${base}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    ]);
    const rpc = (id: number, method: string, params: object) =>
      call("/a2a", {
        method: "POST",
        headers: { ...admin, "A2A-Version": "1.0" },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
      });
    const { stages } = edgeRun();
    const sent = await rpc(1, "SendMessage", {
      message: {
        messageId: "smoke-1",
        role: "ROLE_USER",
        parts: [{ text: "Ship the edge service" }, { data: { stages } }],
      },
      configuration: { returnImmediately: true },
    });
    const task = sent.body.result?.task;
    expect([sent.status, task?.status?.state]).toEqual([200, "TASK_STATE_SUBMITTED"]);
    const read = await rpc(2, "GetTask", { id: task?.id });
    expect([read.body.result?.id, read.body.result?.contextId]).toEqual([task?.id, task?.id]);
    const refused = await rpc(3, "SendMessage", {
      message: { messageId: "smoke-2", role: "ROLE_USER", parts: [{ text: "No stages" }] },
    });
    expect(refused.body.error?.code).toBe(-32602);
  });

  it("answers /mcp, whose MCP SDK the isolate loads on the first /mcp request", async () => {
    // A run of its own, and an agent of it.
    const { agentToken } = await earlyErrorFixture(base, adminToken);
    const mcp = async (id: number, method: string, params: object) => {
      const response = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${agentToken}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
      });
      const text = await response.text();
      const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
      return { status: response.status, body: JSON.parse(data) };
    };
    const initialized = await mcp(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "smoke", version: "1.0.0" },
    });
    expect([initialized.status, initialized.body.result?.serverInfo?.name]).toEqual([
      200,
      "task-context-delivery",
    ]);
    const tools = await mcp(2, "tools/list", {});
    expect(tools.body.result.tools.map((tool: { name: string }) => tool.name)).toContain(
      "claim_work_item",
    );
  });

  // The same table as the Node server's (test/node/keep-alive-after-errors.test.ts), on workerd
  // over a socket: whatever workerd does with the unread body, the client's next request works.
  for (const shape of ["content-length", "chunked"] satisfies BodyShape[]) {
    it(`keeps fetch's and a node:http Agent's next request working after every early error, body sent ${shape}`, async () => {
      const rows = earlyErrors(await earlyErrorFixture(base, adminToken));
      const healthz = { method: "GET", path: "/healthz", headers: {}, bytes: 0 };
      for (const row of rows) {
        const seen = await sendWithFetch(base, row, shape);
        expect([row.name, seen.status, JSON.parse(seen.body).code]).toEqual([
          row.name,
          row.status,
          row.code,
        ]);
        const next = await sendWithFetch(base, healthz, "content-length");
        expect([row.name, next.status]).toEqual([row.name, 200]);
        const agent = oneConnectionAgent();
        try {
          const refused = await sendWithAgent(agent, base, row, shape);
          expect([row.name, refused.status]).toEqual([row.name, row.status]);
          const after = await sendWithAgent(agent, base, healthz, "content-length");
          expect([row.name, after.status]).toEqual([row.name, 200]);
        } finally {
          agent.destroy();
        }
      }
    }, 60_000);
  }

  it("sends an item to an A2A 0.3 agent from the run's alarm, with the production compatibility flags", async () => {
    const agent = await startA2aAgent({
      name: "Smoke 0.3",
      skills: [{ id: "write_file" }],
      streaming: false,
      a2a03: { transport: "JSONRPC" },
    });
    try {
      const created = await call("/v1/runs", {
        method: "POST",
        headers: admin,
        body: JSON.stringify(edgeRun({ lease_ms: 60_000 })),
      });
      const runId: string = created.body.run_id;
      const added = await call(`/v1/runs/${runId}/agents`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ tag: "old", a2a: { url: agent.url } }),
      });
      expect([added.status, added.body.a2a?.protocol_version]).toEqual([201, "0.3.0"]);
      // The registration rings the run's alarm at once; wait for its round to settle the run.
      const end = Date.now() + 30_000;
      let run = await call(`/v1/runs/${runId}`, { headers: admin });
      while (run.body.status === "active" && Date.now() < end) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        run = await call(`/v1/runs/${runId}`, { headers: admin });
      }
      const events = await call(`/v1/runs/${runId}/events?after=0&limit=100`, { headers: admin });
      const failed = events.body.events.filter(
        (event: { type: string }) => event.type === "work_item.failed",
      );
      expect([run.body.status, failed]).toEqual(["completed", []]);
      expect(agent.tasks).toHaveLength(1);
    } finally {
      await agent.close();
    }
  }, 60_000);

  it("refuses code generation from strings, as production Workers do", async () => {
    const refused = {
      allowed: false,
      name: "EvalError",
      message: "Code generation from strings disallowed for this context",
    };
    expect(await call("/__smoke/code-generation")).toEqual({
      status: 200,
      body: { function: refused, eval: refused },
    });
  });
});
