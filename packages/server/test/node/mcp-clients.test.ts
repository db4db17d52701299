// Every tool of the service's /mcp, its success and its refusal, through both generations of the
// official MCP client over a real socket: v2 (@modelcontextprotocol/client) and v1
// (@modelcontextprotocol/sdk 1.32, the most installed, which checks a result's structured content
// against the tool's output schema even on errors and throws -32602 when it does not match). And
// the DNS-rebinding check of /mcp: Host and Origin.
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNodeServer } from "../../src/node.ts";
import {
  artifactCompletion,
  createRun,
  reviewCompletion,
  reviewStage,
  runInput,
  taskStage,
} from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";
import { overSocket, temporaryFolder } from "./services.ts";

type Result = Record<string, unknown> & { isError?: boolean; content?: unknown };

/** A client of either generation, connected to /mcp with `token`, its tools listed. */
async function connect(generation: "v1" | "v2", service: Service, token: string | undefined) {
  const url = new URL(`${service.baseUrl}/mcp`);
  const requestInit = { headers: { Authorization: `Bearer ${token}` } };
  const info = { name: "edge-tests", version: "1.0.0" };
  const client = generation === "v1" ? new V1Client(info) : new V2Client(info);
  if (client instanceof V1Client) await client.connect(new V1Http(url, { requestInit }));
  else await client.connect(new V2Http(url, { requestInit }));
  await client.listTools(); // from here on, results are checked against the output schemas
  return {
    call: async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as Result,
    close: () => client.close(),
  };
}

/** The one shape of a tool refusal: text, `_meta` body, no structuredContent. */
function expectRefusal(result: Result, code: string) {
  const body = (result._meta as Record<string, { code: string; error: string }>)[
    "task-context/error"
  ];
  expect({
    isError: result.isError,
    structuredContent: result.structuredContent,
    code: body?.code,
    content: result.content,
  }).toEqual({
    isError: true,
    structuredContent: undefined,
    code,
    content: [{ type: "text", text: `${code}: ${body?.error}` }],
  });
}

describe.each(["v1", "v2"] as const)("/mcp with the %s client", (generation) => {
  let service: Service;
  beforeAll(async () => {
    service = await overSocket();
  });
  afterAll(() => service.stop());

  it("every tool succeeds with structured content that matches its output schema", async () => {
    const fixture = await createRun(
      service,
      runInput([taskStage("draft"), reviewStage("review", "draft")], { max_attempts: 2 }),
    );
    const writer = await connect(generation, service, (await fixture.agent("writer")).token);
    const critic = await connect(generation, service, (await fixture.agent("critic")).token);
    try {
      const polled = await writer.call("poll_inbox", {});
      const offers = (polled.structuredContent as { offers: { id: string }[] }).offers;
      expect([polled.isError ?? false, offers.length]).toEqual([false, 1]);
      const claimed = await writer.call("claim_work_item", { work_item_id: offers[0]?.id });
      const id = (claimed.structuredContent as { work_item: { id: string } }).work_item.id;
      const beat = await writer.call("heartbeat", { work_item_id: id, attempt: 1 });
      expect(beat.structuredContent).toEqual({ expires_at: expect.any(String) });
      const failed = await writer.call("fail_work_item", {
        work_item_id: id,
        attempt: 1,
        reason: "the source moved",
      });
      expect(failed.structuredContent).toMatchObject({ status: "offered", attempts_left: 1 });
      await writer.call("claim_work_item", { work_item_id: id });
      const done = await writer.call("complete_work_item", {
        work_item_id: id,
        ...artifactCompletion(2),
      });
      const artifactId = (done.structuredContent as { artifact_id: string }).artifact_id;
      const read = await critic.call("get_artifact", { artifact_id: artifactId });
      expect(read.structuredContent).toMatchObject({
        id: artifactId,
        content: "# Draft\n\nEdge runtimes…",
      });
      const review = await critic.call("claim_work_item", {});
      const reviewId = (review.structuredContent as { work_item: { id: string } }).work_item.id;
      const reviewed = await critic.call("complete_work_item", {
        work_item_id: reviewId,
        ...reviewCompletion(1),
      });
      expect([reviewed.isError ?? false, reviewed.structuredContent]).toEqual([
        false,
        expect.objectContaining({ status: "completed" }),
      ]);
    } finally {
      await Promise.all([writer.close(), critic.close()]);
    }
  });

  it("every tool's refusal is a tool error the client accepts: the code in _meta, no structured content", async () => {
    const fixture = await createRun(service, runInput([taskStage("draft")]));
    const agent = await connect(generation, service, (await fixture.agent("writer")).token);
    try {
      expectRefusal(await agent.call("poll_inbox", { wait: 31 }), "INVALID_REQUEST");
      expectRefusal(
        await agent.call("claim_work_item", { work_item_id: "wi_none" }),
        "WORK_ITEM_NOT_FOUND",
      );
      expectRefusal(
        await agent.call("heartbeat", { work_item_id: "wi_none", attempt: 1 }),
        "WORK_ITEM_NOT_FOUND",
      );
      expectRefusal(
        await agent.call("complete_work_item", {
          work_item_id: "wi_none",
          ...artifactCompletion(1),
        }),
        "WORK_ITEM_NOT_FOUND",
      );
      expectRefusal(
        await agent.call("fail_work_item", { work_item_id: "wi_none", attempt: 1, reason: "x" }),
        "WORK_ITEM_NOT_FOUND",
      );
      expectRefusal(
        await agent.call("get_artifact", { artifact_id: "art_none" }),
        "ARTIFACT_NOT_FOUND",
      );
      const claimed = await agent.call("claim_work_item", {});
      const id = (claimed.structuredContent as { work_item: { id: string } }).work_item.id;
      expectRefusal(await agent.call("heartbeat", { work_item_id: id, attempt: 2 }), "LEASE_LOST");
    } finally {
      await agent.close();
    }
  });
});

describe("/mcp against DNS rebinding", () => {
  const folder = temporaryFolder();
  const adminToken = "test-admin-token-0123456789abcdef";
  let servers: Array<{ url: string; close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    folder.remove();
  });

  /** A server with `allowedHosts`, a run and an agent's token. */
  async function serve(options: { allowedHosts?: string[]; cors?: { origins: string[] } } = {}) {
    const server = await startNodeServer({
      port: 0,
      host: "127.0.0.1",
      database: `${folder.path}/${servers.length}.db`,
      adminToken,
      ...options,
    });
    servers = [...servers, server];
    const service = {
      baseUrl: server.url,
      adminToken,
      fetch,
      advance: async () => {},
      stop: async () => {},
    };
    const fixture = await createRun(service, runInput([taskStage("draft")]));
    return { url: server.url, token: (await fixture.agent("writer")).token };
  }

  /** POST /mcp `initialize` with these headers; its status and error code. */
  async function initialize(
    url: string,
    token: string | undefined,
    headers: Record<string, string>,
  ) {
    const { request } = await import("node:http");
    return new Promise<{ status: number; code?: string; error?: string }>((resolve, reject) => {
      const body =
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
      const outgoing = request(`${url}/mcp`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers,
        },
      });
      outgoing.on("response", (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on("end", () => {
          const parsed = response.headers["content-type"]?.includes("application/json")
            ? JSON.parse(text)
            : {};
          resolve({ status: response.statusCode ?? 0, code: parsed.code, error: parsed.error });
        });
      });
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  }

  it("answers loopback hosts by default and refuses another Host with 403 HOST_NOT_ALLOWED", async () => {
    const { url, token } = await serve();
    const port = new URL(url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "localhost"]) {
      expect([host, (await initialize(url, token, { Host: host })).status]).toEqual([host, 200]);
    }
    expect(await initialize(url, token, { Host: "evil.example.com" })).toEqual({
      status: 403,
      code: "HOST_NOT_ALLOWED",
      error:
        'Host "evil.example.com" is not allowed on /mcp: this service answers MCP requests addressed to localhost, 127.0.0.1, [::1] only (protection against DNS rebinding). To serve it under another name, add the name to TASK_CONTEXT_ALLOWED_HOSTS.',
    });
    // Checked before the token: a rebinding page learns nothing about tokens.
    expect((await initialize(url, "tc_forged", { Host: "evil.example.com" })).status).toBe(403);
  });

  it("refuses a browser Origin that is neither the service's host nor a CORS origin", async () => {
    const { url, token } = await serve({ cors: { origins: ["https://app.example.com"] } });
    expect((await initialize(url, token, { Origin: new URL(url).origin })).status).toBe(200);
    expect((await initialize(url, token, { Origin: "https://app.example.com" })).status).toBe(200);
    expect(await initialize(url, token, { Origin: "https://evil.example.com" })).toEqual({
      status: 403,
      code: "HOST_NOT_ALLOWED",
      error:
        'Origin "https://evil.example.com" is not allowed on /mcp: a browser page may call it only from this service\'s own host or from an origin in TASK_CONTEXT_CORS_ORIGINS (protection against DNS rebinding).',
    });
  });

  it("answers the configured hosts only, when allowedHosts is set", async () => {
    const { url, token } = await serve({ allowedHosts: ["tc.example.com"] });
    expect((await initialize(url, token, { Host: "tc.example.com" })).status).toBe(200);
    expect((await initialize(url, token, { Host: "tc.example.com:443" })).status).toBe(200);
    expect((await initialize(url, token, { Host: new URL(url).host })).code).toBe(
      "HOST_NOT_ALLOWED",
    );
  });
});
