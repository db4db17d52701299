// What each protocol revision has. resources/subscribe and resources/unsubscribe at both
// revisions, with and without a uri: a 2025-era connection that subscribes is served (params
// checked: -32602 without a uri), one that does not offer subscriptions answers -32601; at
// 2026-07-28, which removed both methods, every request for them is -32601 Method not found,
// over HTTP with a 404 — the params guard leaves them to the SDK. And a request that claims a
// revision the server does not serve is -32022, also over stdio once the connection serves
// 2026-07-28. Over the HTTP recipe on loopback and the built stdio bin.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryWorkspace } from "@task-context/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTaskContextHttpHandler } from "./http.ts";
import { CONTEXT_MD_URI } from "./index.ts";
import { serveFetch } from "./test-support/fetch-server.ts";
import { CONTEXT } from "./test-support/fixtures.ts";
import { rawPost, startHttpRecipe } from "./test-support/http-server.ts";
import { HANDSHAKE, requestLine, runBinWithInput } from "./test-support/raw-stdio.ts";

const METHODS = ["resources/subscribe", "resources/unsubscribe"] as const;

/** What a 2026-07-28 request carries in `_meta`. */
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
};

/** The guard's answer to a subscription request without a uri (-32602, the problem at /uri). */
const missingUri = (id: number, method: string) => {
  const problem =
    "uri is required: a string, the resource's URI, such as task-context://workspace/CONTEXT.md.";
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: -32602,
      message: `Invalid params for ${method}: ${problem}`,
      data: { issues: [{ path: "/uri", message: problem }] },
    },
  };
};

/** The SDK's answer to a method the server does not have. */
const methodNotFound = (id: number) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32601, message: "Method not found" },
});

/** The JSON-RPC message of an answer, whether sent as JSON or as one SSE event. */
function messageOf(body: string): unknown {
  const data = body.split("\n").find((line) => line.startsWith("data: "));
  return JSON.parse(data === undefined ? body : data.slice("data: ".length));
}

/** Opens a 2025-11-25 session on `url`: the headers its requests carry. */
async function openSession(url: URL): Promise<Record<string, string>> {
  const [initialize] = HANDSHAKE;
  const opened = await rawPost(url, String(initialize), {});
  expect(opened.status).toBe(200);
  const headers = {
    "mcp-session-id": String(opened.headers["mcp-session-id"]),
    "mcp-protocol-version": "2025-11-25",
  };
  const [, initialized] = HANDSHAKE;
  expect((await rawPost(url, String(initialized), headers)).status).toBe(202);
  return headers;
}

/** Posts a 2026-07-28 request for `method` with `params` (and the envelope): status and message. */
async function postStateless(url: URL, id: number, method: string, params: object) {
  const answer = await rawPost(url, requestLine(id, method, { ...params, _meta: ENVELOPE }), {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  });
  return { status: answer.status, message: messageOf(answer.body) };
}

describe("resources/subscribe and unsubscribe over the HTTP recipe (with changes)", () => {
  let directory: string;
  let served: Awaited<ReturnType<typeof startHttpRecipe>>;
  beforeAll(async () => {
    directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-removed-")));
    writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
    served = await startHttpRecipe(directory);
  });
  afterAll(async () => {
    await served.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it.each(METHODS)(
    "%s at 2025-11-25: 200 and -32602 without a uri, 200 and {} with one",
    async (method) => {
      const session = await openSession(served.url);
      const without = await rawPost(served.url, requestLine(7, method, {}), session);
      expect([without.status, messageOf(without.body)]).toEqual([200, missingUri(7, method)]);
      const withUri = await rawPost(
        served.url,
        requestLine(8, method, { uri: CONTEXT_MD_URI }),
        session,
      );
      expect([withUri.status, messageOf(withUri.body)]).toEqual([
        200,
        { jsonrpc: "2.0", id: 8, result: {} },
      ]);
    },
  );

  it.each(METHODS)("%s at 2026-07-28: 404 and -32601, with a uri or without", async (method) => {
    expect(await postStateless(served.url, 7, method, {})).toEqual({
      status: 404,
      message: methodNotFound(7),
    });
    expect(await postStateless(served.url, 8, method, { uri: CONTEXT_MD_URI })).toEqual({
      status: 404,
      message: methodNotFound(8),
    });
  });
});

describe("resources/subscribe and unsubscribe over HTTP without changes (no subscriptions)", () => {
  let server: Awaited<ReturnType<typeof serveFetch>>;
  let handler: ReturnType<typeof createTaskContextHttpHandler>;
  beforeAll(async () => {
    handler = createTaskContextHttpHandler({
      workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }),
    });
    server = await serveFetch((request) => handler.fetch(request));
  });
  afterAll(async () => {
    await handler.close();
    await server.close();
  });

  it.each(METHODS)("%s at 2025-11-25: 200 and -32601, with a uri or without", async (method) => {
    const session = await openSession(server.url);
    for (const [id, params] of [
      [7, {}],
      [8, { uri: CONTEXT_MD_URI }],
    ] as const) {
      const answer = await rawPost(server.url, requestLine(id, method, params), session);
      expect([answer.status, messageOf(answer.body)]).toEqual([200, methodNotFound(id)]);
    }
  });

  it.each(METHODS)("%s at 2026-07-28: 404 and -32601", async (method) => {
    expect(await postStateless(server.url, 7, method, {})).toEqual({
      status: 404,
      message: methodNotFound(7),
    });
  });
});

describe("resources/subscribe and unsubscribe over stdio (the built bin)", () => {
  let directory: string;
  beforeAll(() => {
    directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-removed-")));
    writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("at 2025-11-25: -32602 without a uri, {} with one", async () => {
    const { answers } = await runBinWithInput(
      directory,
      `${[
        ...HANDSHAKE,
        requestLine(1, "resources/subscribe", {}),
        requestLine(2, "resources/unsubscribe", {}),
        requestLine(3, "resources/subscribe", { uri: CONTEXT_MD_URI }),
        requestLine(4, "resources/unsubscribe", { uri: CONTEXT_MD_URI }),
      ].join("\n")}\n`,
    );
    expect(answers.sort((a, b) => Number(a.id) - Number(b.id)).slice(1)).toEqual([
      missingUri(1, "resources/subscribe"),
      missingUri(2, "resources/unsubscribe"),
      { jsonrpc: "2.0", id: 3, result: {} },
      { jsonrpc: "2.0", id: 4, result: {} },
    ]);
  });

  it("at 2026-07-28: -32601, with a uri or without", async () => {
    const { answers } = await runBinWithInput(
      directory,
      `${[
        requestLine(1, "resources/subscribe", { _meta: ENVELOPE }),
        requestLine(2, "resources/unsubscribe", { _meta: ENVELOPE }),
        requestLine(3, "resources/subscribe", { uri: CONTEXT_MD_URI, _meta: ENVELOPE }),
        requestLine(4, "resources/unsubscribe", { uri: CONTEXT_MD_URI, _meta: ENVELOPE }),
      ].join("\n")}\n`,
    );
    expect(answers.sort((a, b) => Number(a.id) - Number(b.id))).toEqual(
      [1, 2, 3, 4].map(methodNotFound),
    );
  });

  it("at 2026-07-28: a later request that claims another revision is -32022 with the supported ones", async () => {
    const claiming = (version: unknown) => ({
      _meta: { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": version },
    });
    const { answers } = await runBinWithInput(
      directory,
      `${[
        requestLine(1, "tools/list", { _meta: ENVELOPE }),
        requestLine(2, "tools/list", claiming("v999.0.0")),
        requestLine(3, "server/discover", claiming("2099-01-01")),
      ].join("\n")}\n`,
    );
    const unsupported = (id: number, requested: string) => ({
      jsonrpc: "2.0",
      id,
      error: {
        code: -32022,
        message: `Unsupported protocol version: ${requested}`,
        data: { supported: ["2026-07-28"], requested },
      },
    });
    expect(answers.sort((a, b) => Number(a.id) - Number(b.id)).slice(1)).toEqual([
      unsupported(2, "v999.0.0"),
      unsupported(3, "2099-01-01"),
    ]);
  });
});
