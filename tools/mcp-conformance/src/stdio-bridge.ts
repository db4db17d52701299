// A loopback HTTP front for an MCP server that speaks stdio, so that the conformance suite (which
// tests servers by URL only) can test it: each HTTP message is relayed as a JSON-RPC line to a
// process of the server, and its answers come back as HTTP answers — both protocol eras.
//
// - 2025 era: an `initialize` starts a process of its own for the session (`Mcp-Session-Id`);
//   the session's requests go to that process, its unsolicited messages (change notifications)
//   to the session's GET stream, and DELETE ends it.
// - 2026-07-28: one process serves every request (stateless). The SDK's own classifier
//   (`classifyInboundRequest`) applies the HTTP binding's edge checks (envelope and header
//   mismatches: 400) as the SDK's HTTP entry does; everything it passes goes to the process, and
//   the process's error answers get the binding's HTTP status (-32601: 404; -32600, -32700,
//   -32020, -32021, -32022: 400; anything else in-band: 200). A `subscriptions/listen` answer is
//   an SSE stream of the notifications that carry its subscription id, until the client leaves.
//
// Request ids are renumbered on the way to a process (the clients of a stateless endpoint share
// it and reuse ids) and restored on the way back. What only HTTP has — Host and Origin checks,
// the standard request headers' presence — is not the process's and is not bridged.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { classifyInboundRequest, SUBSCRIPTION_ID_META_KEY } from "@modelcontextprotocol/server";

/** The command that starts one process of the stdio server. */
export interface StdioCommand {
  command: string;
  args: readonly string[];
  cwd?: string | undefined;
}

/** A running bridge: the URL to give the suite. */
export interface StdioBridge {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  /** Stops the HTTP server and every process. */
  close(): Promise<void>;
}

type Message = Record<string, unknown> & { id?: unknown; method?: unknown; params?: unknown };

/** The most 2025 sessions (each a process) open at once; a new one closes the least recently used. */
const MAX_SESSIONS = 8;

/**
 * Processes started ahead of the next sessions' `initialize`. The suite gives an `initialize` 5 s
 * and sends some back to back; on a busy machine a process takes longer than that to start, so
 * several are kept started (one was not enough: `server-session-id-visible-ascii` timed out).
 */
const SPARES = 3;

/** The HTTP status of a JSON-RPC error answer on the 2026-07-28 HTTP binding. */
const STATELESS_ERROR_STATUS: Readonly<Record<number, number>> = {
  [-32700]: 400,
  [-32600]: 400,
  [-32601]: 404,
  [-32020]: 400,
  [-32021]: 400,
  [-32022]: 400,
};

/** One request in flight: where its answer and the notifications that belong to it go. */
interface Exchange {
  originalId: unknown;
  progressToken: unknown;
  deliver(message: Message, final: boolean): void;
}

/** One process of the stdio server. */
class StdioProcess {
  readonly #child: ChildProcess;
  readonly #exchanges = new Map<number, Exchange>();
  #nextId = 1;
  /** Where messages that belong to no request go (a 2025 session's GET stream), if anywhere. */
  unsolicited: ((message: Message) => void) | undefined;
  readonly exited: Promise<void>;

  constructor({ command, args, cwd }: StdioCommand) {
    this.#child = spawn(command, [...args], { cwd, stdio: ["pipe", "pipe", "ignore"] });
    this.#child.stdin?.on("error", () => {});
    this.exited = new Promise((resolve) => this.#child.on("close", () => resolve()));
    void this.exited.then(() => {
      for (const exchange of this.#exchanges.values()) {
        exchange.deliver(
          {
            jsonrpc: "2.0",
            id: exchange.originalId,
            error: { code: -32603, message: "The stdio server exited before it answered." },
          },
          true,
        );
      }
      this.#exchanges.clear();
    });
    const lines = createInterface({ input: this.#child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      if (line.trim() !== "") this.#route(JSON.parse(line) as Message);
    });
  }

  /** Sends a message the process answers nothing to (a notification, a client's response). */
  post(message: Message): void {
    this.#child.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends a request under a fresh id; `exchange` gets what belongs to it. Returns a canceller. */
  request(message: Message, exchange: Exchange): () => void {
    const id = this.#nextId++;
    this.#exchanges.set(id, exchange);
    this.post({ ...message, id });
    return () => {
      if (!this.#exchanges.delete(id)) return;
      this.post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });
    };
  }

  #route(message: Message): void {
    const isAnswer = "result" in message || "error" in message;
    if (isAnswer && typeof message.id === "number") {
      const exchange = this.#exchanges.get(message.id);
      if (exchange !== undefined) {
        this.#exchanges.delete(message.id);
        exchange.deliver({ ...message, id: exchange.originalId }, true);
        return;
      }
    }
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const subscription = meta[SUBSCRIPTION_ID_META_KEY];
    const listening =
      typeof subscription === "number" ? this.#exchanges.get(subscription) : undefined;
    if (listening !== undefined) {
      const restored = { ...meta, [SUBSCRIPTION_ID_META_KEY]: listening.originalId };
      listening.deliver({ ...message, params: { ...params, _meta: restored } }, false);
      return;
    }
    if (message.method === "notifications/progress") {
      for (const exchange of this.#exchanges.values()) {
        if (exchange.progressToken === params.progressToken) {
          exchange.deliver(message, false);
          return;
        }
      }
    }
    this.unsolicited?.(message);
  }

  async close(): Promise<void> {
    this.#child.stdin?.end();
    const killer = setTimeout(() => this.#child.kill("SIGKILL"), 5_000);
    await this.exited;
    clearTimeout(killer);
  }
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** 202 with no body: a notification or a client's response was handed on. */
function accepted(response: ServerResponse): void {
  response.writeHead(202);
  response.end();
}

const errorBody = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: "2.0",
  id: typeof id === "string" || typeof id === "number" ? id : null,
  error: { code, message, ...(data !== undefined && { data }) },
});

function openStream(response: ServerResponse): (message: Message) => void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  response.flushHeaders();
  return (message) => response.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/**
 * Relays `request` to `target` and answers `response` with what comes back: JSON with `status`
 * of the answer, or, when notifications of the request come first, an SSE stream that ends with
 * the answer (or when the client leaves, which cancels the request).
 */
function relay(
  target: StdioProcess,
  request: Message,
  response: ServerResponse,
  status: (answer: Message) => number,
  headers: Record<string, string> = {},
): void {
  let write: ((message: Message) => void) | undefined;
  let done = false;
  const meta = ((request.params as { _meta?: Record<string, unknown> } | undefined)?._meta ??
    {}) as Record<string, unknown>;
  const cancel = target.request(request, {
    originalId: request.id,
    progressToken: meta.progressToken,
    deliver(message, final) {
      if (done) return;
      if (final && write === undefined) {
        done = true;
        sendJson(response, status(message), message, headers);
        return;
      }
      write ??= openStream(response);
      write(message);
      if (final) {
        done = true;
        response.end();
      }
    },
  });
  response.on("close", () => {
    if (!done) {
      done = true;
      cancel();
    }
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Starts the bridge on a free loopback port: each 2025 session and the 2026-07-28 traffic get a
 * process of `command` (the stdio server, such as the built bin of @task-context/mcp).
 */
export async function startStdioBridge(command: StdioCommand): Promise<StdioBridge> {
  /** Open sessions by id, least recently used first: at most {@link MAX_SESSIONS}. */
  const sessions = new Map<string, StdioProcess>();
  let stateless: StdioProcess | undefined;
  /** Processes started ahead of the next sessions' `initialize`, so that they need not wait. */
  const spares = Array.from({ length: SPARES }, () => new StdioProcess(command));
  const openSession = (): [string, StdioProcess] => {
    spares.push(new StdioProcess(command));
    const session = spares.shift() as StdioProcess;
    const id = crypto.randomUUID();
    sessions.set(id, session);
    for (const [oldest, process] of sessions) {
      if (sessions.size <= MAX_SESSIONS) break;
      sessions.delete(oldest);
      void process.close();
    }
    return [id, session];
  };
  const header = (request: IncomingMessage, name: string) => {
    const value = request.headers[name];
    return typeof value === "string" ? value : undefined;
  };

  /** The session `request` names; otherwise answers 400 (none named) or 404 (unknown). */
  const sessionOf = (request: IncomingMessage, response: ServerResponse) => {
    const id = header(request, "mcp-session-id");
    const session = id === undefined ? undefined : sessions.get(id);
    if (id === undefined) {
      sendJson(response, 400, errorBody(null, -32000, "Bad Request: no Mcp-Session-Id header."));
      return undefined;
    }
    if (session === undefined) {
      sendJson(response, 404, errorBody(null, -32001, "Session not found."));
      return undefined;
    }
    // Most recently used last: the first entry is the one to close.
    sessions.delete(id);
    sessions.set(id, session);
    return { id, session };
  };

  /** GET opens a session's stream of messages that belong to no request; DELETE ends it. */
  const serveSession = async (request: IncomingMessage, response: ServerResponse) => {
    const named = sessionOf(request, response);
    if (named === undefined) return;
    const { id, session } = named;
    if (request.method === "DELETE") {
      sessions.delete(id);
      await session.close();
      return sendJson(response, 200, {});
    }
    const write = openStream(response);
    session.unsolicited = write;
    response.on("close", () => {
      if (session.unsolicited === write) session.unsolicited = undefined;
    });
  };

  const servePost = async (request: IncomingMessage, response: ServerResponse) => {
    if (!(header(request, "content-type") ?? "").includes("application/json")) {
      return sendJson(
        response,
        415,
        errorBody(null, -32000, "Content-Type must be application/json."),
      );
    }
    let body: Message;
    try {
      body = JSON.parse(await readBody(request)) as Message;
    } catch {
      return sendJson(response, 400, errorBody(null, -32700, "Parse error"));
    }
    const route = classifyInboundRequest({
      httpMethod: "POST",
      body,
      ...optional("protocolVersionHeader", header(request, "mcp-protocol-version")),
      ...optional("mcpMethodHeader", header(request, "mcp-method")),
      ...optional("mcpNameHeader", header(request, "mcp-name")),
    });
    if (route.kind === "reject") {
      const rejection = errorBody(body?.id, route.code, route.message, route.data);
      return sendJson(response, route.httpStatus, rejection);
    }
    const isRequest = typeof body.method === "string" && "id" in body;
    if (route.kind === "modern") {
      stateless ??= new StdioProcess(command);
      if (!isRequest) {
        stateless.post(body);
        return accepted(response);
      }
      const code = (answer: Message) => (answer.error as { code?: number } | undefined)?.code;
      return relay(stateless, body, response, (answer) => {
        const errorCode = code(answer);
        return errorCode === undefined ? 200 : (STATELESS_ERROR_STATUS[errorCode] ?? 200);
      });
    }
    if (header(request, "mcp-session-id") === undefined && route.reason === "initialize") {
      const [sessionId, session] = openSession();
      return relay(session, body, response, () => 200, { "mcp-session-id": sessionId });
    }
    const session = sessionOf(request, response)?.session;
    if (session === undefined) return;
    if (!isRequest) {
      session.post(body);
      return accepted(response);
    }
    return relay(session, body, response, () => 200);
  };

  const server = createServer((request, response) => {
    const served = request.method === "POST" ? servePost : serveSession;
    served(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, errorBody(null, -32603, String(error)));
      else response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const processes = [
        ...spares,
        ...sessions.values(),
        ...(stateless === undefined ? [] : [stateless]),
      ];
      sessions.clear();
      await Promise.all(processes.map((process) => process.close()));
    },
  };
}

/** `{ [name]: value }`, or nothing when `value` is undefined. */
function optional<Name extends string>(name: Name, value: string | undefined) {
  return (value === undefined ? {} : { [name]: value }) as Partial<Record<Name, string>>;
}
