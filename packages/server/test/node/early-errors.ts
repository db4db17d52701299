// The early error answers of the service — the ones it gives before (or without) reading a
// request's body — and two keep-alive clients that send each with a large body and then reuse
// their connection: fetch (its own pool) and a node:http Agent with keepAlive and one socket.
// Shared by the Node test (test/node) and the workerd smoke test (test/smoke).
import { Agent, request } from "node:http";
import { setTimeout as delay } from "node:timers/promises";

/** The tokens and run the rows need. */
export interface EarlyErrorFixture {
  adminToken: string;
  agentToken: string;
  runId: string;
}

/** One early error: the request that gets it and the answer it gets. */
export interface EarlyError {
  name: string;
  status: number;
  code: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The size of the body sent with the request. */
  bytes: number;
}

const json = { "Content-Type": "application/json" };

/**
 * Every early error status, each with a body of `bytes` (600 000: more than the ~256 KB a
 * server adapter may leave unread); `tooLargeBytes` is over the service's body limit.
 */
export function earlyErrors(
  { adminToken, agentToken, runId }: EarlyErrorFixture,
  { bytes = 600_000, tooLargeBytes = 1_200_000 } = {},
): EarlyError[] {
  const admin = { ...json, Authorization: `Bearer ${adminToken}` };
  const agent = { ...json, Authorization: `Bearer ${agentToken}` };
  return [
    {
      name: "body over the limit",
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
      method: "POST",
      path: "/v1/runs",
      headers: admin,
      bytes: tooLargeBytes,
    },
    {
      name: "no token",
      status: 401,
      code: "UNAUTHORIZED",
      method: "POST",
      path: "/v1/runs",
      headers: json,
      bytes,
    },
    {
      name: "a wrong token",
      status: 401,
      code: "UNAUTHORIZED",
      method: "POST",
      path: "/v1/runs",
      headers: { ...json, Authorization: "Bearer not-a-token" },
      bytes,
    },
    {
      name: "an agent on an admin endpoint",
      status: 403,
      code: "FORBIDDEN",
      method: "POST",
      path: "/v1/runs",
      headers: agent,
      bytes,
    },
    {
      name: "the admin on /mcp",
      status: 403,
      code: "FORBIDDEN",
      method: "POST",
      path: "/mcp",
      headers: admin,
      bytes,
    },
    {
      name: "an unknown path",
      status: 404,
      code: "NOT_FOUND",
      method: "POST",
      path: "/v1/nothing-here",
      headers: admin,
      bytes,
    },
    {
      name: "another run",
      status: 404,
      code: "RUN_NOT_FOUND",
      method: "POST",
      path: "/v1/runs/run_00000000000000000000000000/agents",
      headers: agent,
      bytes,
    },
    {
      name: "a method the path does not take",
      status: 405,
      code: "METHOD_NOT_ALLOWED",
      method: "PUT",
      path: `/v1/runs/${runId}`,
      headers: admin,
      bytes,
    },
    {
      name: "a body not declared as JSON",
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
      method: "POST",
      path: "/v1/runs",
      headers: { ...admin, "Content-Type": "text/plain" },
      bytes,
    },
  ];
}

/** How a body is sent: with Content-Length, chunked, or chunked and slowly. */
export type BodyShape = "content-length" | "chunked" | "slow";
export const bodyShapes: readonly BodyShape[] = ["content-length", "chunked", "slow"];

const CHUNK_BYTES = 60_000;
/** A slow client: one chunk, then this long before the next. */
const SLOW_PAUSE_MS = 150;

/** What a client saw of an answer. */
export interface Seen {
  status: number;
  /** The Connection header of the answer ("keep-alive" when absent on HTTP/1.1). */
  connection: string;
  body: string;
  /** node:http only: whether the request went out on a connection used before. */
  reusedSocket?: boolean;
}

async function* chunksOf(bytes: number, shape: BodyShape): AsyncGenerator<Uint8Array> {
  for (let sent = 0; sent < bytes; sent += CHUNK_BYTES) {
    if (shape === "slow" && sent > 0) await delay(SLOW_PAUSE_MS);
    yield new Uint8Array(Math.min(CHUNK_BYTES, bytes - sent)).fill(0x78); // "x"
  }
}

function streamOf(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
}

/** What a client sends. */
export type Sent = Pick<EarlyError, "method" | "path" | "headers" | "bytes">;

/** Sends a request with fetch (its pooled keep-alive connections). */
export async function sendWithFetch(
  base: string,
  { method, path, headers, bytes }: Sent,
  shape: BodyShape,
): Promise<Seen> {
  const init: RequestInit & { duplex?: "half" } =
    bytes === 0
      ? { method, headers }
      : shape === "content-length"
        ? { method, headers, body: "x".repeat(bytes) }
        : { method, headers, body: streamOf(chunksOf(bytes, shape)), duplex: "half" };
  const response = await fetch(`${base}${path}`, init);
  return {
    status: response.status,
    connection: response.headers.get("connection") ?? "keep-alive",
    body: await response.text(),
  };
}

/** A node:http Agent that keeps one connection alive and reuses it. */
export function oneConnectionAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 });
}

/**
 * Sends a request through a node:http Agent, the whole body whatever the answer (as a client
 * streaming an upload does); an error writing the rest after a complete answer that said
 * `Connection: close` is expected and ignored.
 */
export function sendWithAgent(
  agent: Agent,
  base: string,
  { method, path, headers, bytes }: Sent,
  shape: BodyShape,
): Promise<Seen> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = request(
      `${base}${path}`,
      {
        agent,
        method,
        headers:
          shape === "content-length" && bytes > 0
            ? { ...headers, "Content-Length": String(bytes) }
            : headers,
      },
      (response) => {
        answered = true;
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("error", reject);
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            connection: response.headers.connection ?? "keep-alive",
            body,
            reusedSocket: outgoing.reusedSocket,
          }),
        );
      },
    );
    outgoing.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (bytes === 0) {
      outgoing.end();
      return;
    }
    (async () => {
      for await (const chunk of chunksOf(bytes, shape)) {
        if (outgoing.destroyed) return;
        if (!outgoing.write(chunk)) {
          await new Promise((drained) => {
            outgoing.once("drain", drained);
            outgoing.once("close", drained);
          });
        }
      }
      if (!outgoing.destroyed) outgoing.end();
    })().catch(reject);
  });
}

/** Creates a run with one agent on a running service: the fixture of the rows. */
export async function earlyErrorFixture(
  base: string,
  adminToken: string,
): Promise<EarlyErrorFixture> {
  const admin = { ...json, Authorization: `Bearer ${adminToken}` };
  const created = await fetch(`${base}/v1/runs`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({
      goal: "Keep connections usable",
      constraints: [],
      stages: [
        {
          id: "draft",
          stage_description: "Write it",
          expected_output: "Markdown",
          available_skills: [],
        },
      ],
    }),
  });
  const { run_id: runId } = (await created.json()) as { run_id: string };
  const added = await fetch(`${base}/v1/runs/${runId}/agents`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ tag: "writer" }),
  });
  const { token: agentToken } = (await added.json()) as { token: string };
  return { adminToken, agentToken, runId };
}
