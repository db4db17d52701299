// An A2A agent that says what a test makes it say, byte for byte, where the official SDK's server
// would not: a card of any size or shape, and any answer to a JSON-RPC request (an HTTP error, a
// JSON-RPC error, something that is not JSON-RPC, a task of any size). A plain node:http server on
// loopback; it notes each request, and how much of its card it could send.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/** One JSON-RPC request the agent received. */
export interface RpcRequest {
  method: string;
  id: unknown;
  params: Record<string, unknown>;
}

/** What the agent answers a request with: a JSON-RPC result, or exactly this HTTP answer. */
export type RpcAnswer =
  | { result: unknown }
  | {
      status: number;
      body?: string;
      contentType?: string;
      statusText?: string;
      /** More headers of the answer (a redirect's `location`). */
      headers?: Record<string, string>;
    };

export interface HostileAgentOptions {
  name?: string;
  skills?: string[];
  streaming?: boolean;
  /** The card served (default: a valid A2A 1.0 card of this agent's JSON-RPC interface). */
  card?: (card: Record<string, unknown>, url: string) => unknown;
  /** Serve the card padded to this many bytes, written in 64 KiB chunks as the reader takes them. */
  cardBytes?: number;
  /** Served as JSON at `/jwks.json`: a key set for the card's signatures. */
  keys?: unknown;
  /** Answers each JSON-RPC request (default: `-32601 Method not found`). */
  answer?: (request: RpcRequest) => RpcAnswer | Promise<RpcAnswer>;
}

export interface HostileAgent {
  url: string;
  requests: RpcRequest[];
  /** The path (with its query) and headers of each JSON-RPC request, in order. */
  seen: { url: string; headers: IncomingHttpHeaders }[];
  /** Bytes of the card written before the reader stopped (or all of it). */
  cardBytesSent(): number;
  close(): Promise<void>;
}

/** A JSON-RPC error answer (HTTP 200) to `request`. */
export function rpcError(request: RpcRequest, code: number, message: string): RpcAnswer {
  return {
    status: 200,
    body: JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code, message } }),
  };
}

/** The A2A 1.0 JSON of a task in `state`, with `parts` as its one artifact when given. */
export function taskJson(id: string, state: string, parts?: unknown[]): Record<string, unknown> {
  return {
    id,
    contextId: "run",
    status: { state, timestamp: new Date(0).toISOString() },
    artifacts: parts === undefined ? [] : [{ artifactId: `${id}-result`, name: "result", parts }],
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

/** Writes `size` bytes of a JSON card (its fields, then padding) at the reader's pace. */
async function writeHugeCard(
  response: ServerResponse,
  card: Record<string, unknown>,
  size: number,
  sent: (bytes: number) => void,
): Promise<void> {
  const head = `${JSON.stringify(card).slice(0, -1)},"padding":"`;
  const chunk = "x".repeat(64 * 1024);
  response.writeHead(200, { "content-type": "application/json" });
  let written = 0;
  const write = (text: string) =>
    new Promise<boolean>((resolve) => {
      if (response.destroyed) return resolve(false);
      written += Buffer.byteLength(text);
      sent(written);
      if (response.write(text)) return resolve(true);
      const done = (ok: boolean) => () => {
        response.off("drain", drained);
        response.off("close", closed);
        resolve(ok);
      };
      const drained = done(true);
      const closed = done(false);
      response.once("drain", drained);
      response.once("close", closed);
    });
  if (!(await write(head))) return;
  while (written + chunk.length + 2 < size) {
    if (!(await write(chunk))) return;
  }
  await write('"}');
  response.end();
}

/** Starts a hostile A2A agent on 127.0.0.1 (a free port). */
export async function startHostileAgent(options: HostileAgentOptions = {}): Promise<HostileAgent> {
  const requests: RpcRequest[] = [];
  const seen: HostileAgent["seen"] = [];
  let cardSent = 0;
  let url = "";
  const cardOf = (): unknown => {
    const card = {
      name: options.name ?? "Hostile",
      supportedInterfaces: [{ url: `${url}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      capabilities: { streaming: options.streaming ?? false },
      skills: (options.skills ?? ["copywriting"]).map((id) => ({ id, name: id, tags: [] })),
    };
    return options.card === undefined ? card : options.card(card, url);
  };
  const server = createServer(async (request, response) => {
    if (request.method === "GET" && request.url === "/.well-known/agent-card.json") {
      const card = cardOf();
      if (options.cardBytes !== undefined) {
        await writeHugeCard(response, card as Record<string, unknown>, options.cardBytes, (n) => {
          cardSent = n;
        });
        return;
      }
      const text = typeof card === "string" ? card : JSON.stringify(card);
      cardSent = Buffer.byteLength(text);
      response.writeHead(200, { "content-type": "application/json" }).end(text);
      return;
    }
    if (request.method === "GET" && request.url === "/jwks.json" && options.keys !== undefined) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(options.keys));
      return;
    }
    const rpc = JSON.parse(await readBody(request)) as RpcRequest;
    requests.push(rpc);
    seen.push({ url: request.url ?? "", headers: request.headers });
    const answer = (await options.answer?.(rpc)) ?? rpcError(rpc, -32601, "Method not found");
    if (!("status" in answer)) {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result: answer.result }));
      return;
    }
    response.statusMessage = answer.statusText ?? response.statusMessage;
    response
      .writeHead(answer.status, {
        "content-type": answer.contentType ?? "application/json",
        ...answer.headers,
      })
      .end(answer.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    seen,
    cardBytesSent: () => cardSent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
