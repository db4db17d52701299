import { AgentCard } from "@a2a-js/sdk";
import { A2A_ERROR_CODE, ContentTypeNotSupportedError } from "@a2a-js/sdk/errors";
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from "@a2a-js/sdk/server";
import { sha256Hex } from "@task-context/core/internal";
import type { Context } from "hono";
import type { ServiceContext } from "../execution/service-context.ts";
import { bearerToken, requireAdmin } from "../http/auth.ts";
import { type A2aServerOptions, clientTokenSenders } from "./client-tokens.ts";
import { CALL_SENDER, CALL_SIGNAL, RunRequestHandler } from "./run-request-handler.ts";
import { serviceAgentCard } from "./service-agent-card.ts";
import type { Sender } from "./task-ids.ts";

/** A JSON-RPC answer of the A2A endpoint. */
type JsonRpcAnswer = {
  jsonrpc: "2.0";
  id: string | number | null;
  result?: unknown;
  error?: unknown;
};

const encoder = new TextEncoder();

/** An SSE comment: what a stream sends when it has had nothing to send for `keepAliveMs`. */
const keepAlive = encoder.encode(": keep-alive\n\n");

/** One SSE frame of a JSON-RPC answer, as the SDK's express handler writes it. */
function frame(answer: unknown, event?: string): Uint8Array {
  return encoder.encode(
    `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(answer)}\n\n`,
  );
}

/** A JSON-RPC error answer for an error the SDK's transport did not map itself. */
function errorAnswer(id: JsonRpcAnswer["id"], error: unknown): JsonRpcAnswer {
  return { jsonrpc: "2.0", id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
}

/** The request's id when its body is a JSON-RPC request, else null. */
function requestId(body: unknown): JsonRpcAnswer["id"] {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/**
 * Whether `body` is a JSON-RPC 2.0 request object: `jsonrpc` "2.0", a string `method`, an `id`
 * that is a string, an integer or null when present. The SDK's transport refuses the others with
 * -32602 (invalid params); the specification (§9.5) asks -32600 (invalid request).
 */
function isJsonRpcRequest(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const { jsonrpc, method, id } = body as Record<string, unknown>;
  const validId = !("id" in body) || id === null || typeof id === "string" || Number.isInteger(id);
  return jsonrpc === "2.0" && typeof method === "string" && method !== "" && validId;
}

/** The service's origin as this request reached it: the card's interface URL is under it. */
function originOf(c: Context): string {
  return new URL(c.req.url).origin;
}

/** The handlers of the service's A2A routes (see `a2aServerRoutes`). */
export interface A2aServerEndpoint {
  /** `GET /.well-known/agent-card.json`. */
  card(c: Context): Promise<Response>;
  /** `POST /a2a`. */
  rpc(c: Context): Promise<Response>;
}

/**
 * The service as an A2A 1.0 agent (Node and Workers alike, no Express): its card (public), and
 * JSON-RPC for the admin token and the client tokens of `options` (scoped to the runs each
 * creates), answered by the SDK's `JsonRpcTransportHandler` over a {@link RunRequestHandler} — the
 * SDK's express `jsonRpcHandler` does the same over Express: the content type checked, the
 * `A2A-Version` checked against the card, a stream's first event awaited before its SSE
 * headers (an early error is a JSON-RPC error answer, not a stream).
 */
export function a2aServerEndpoint(
  service: ServiceContext,
  adminToken: string,
  options: A2aServerOptions = {},
): A2aServerEndpoint {
  const secret = sha256Hex(`a2a-server\n${adminToken}`);
  const clientTokens = options.clientTokens ?? [];
  const clientSender = clientTokenSenders(clientTokens);
  /** The sender of a request: a client token's, else the admin (401/403 for anyone else). */
  const senderOf = async (c: Context): Promise<Sender> => {
    const token = bearerToken(c);
    const client =
      token === undefined || clientTokens.length === 0 ? undefined : await clientSender(token);
    if (client !== undefined) return client;
    requireAdmin(await service.authenticate(c)); // 401 UNAUTHORIZED, 403 FORBIDDEN: the service's answers
    return { kind: "admin" };
  };

  const card = async (c: Context): Promise<Response> => {
    const body = JSON.stringify(AgentCard.toJSON(serviceAgentCard(originOf(c))));
    const etag = `W/"${(await sha256Hex(body)).slice(0, 16)}"`;
    c.header("Cache-Control", "public, max-age=3600");
    c.header("ETag", etag);
    if (c.req.header("If-None-Match") === etag) return c.body(null, 304);
    return c.body(body, 200, { "Content-Type": "application/json" });
  };

  const rpc = async (c: Context): Promise<Response> => {
    const sender = await senderOf(c);
    const mediaType = c.req.header("Content-Type")?.split(";", 1)[0]?.trim().toLowerCase();
    if (mediaType !== undefined && mediaType !== "application/json") {
      return c.json(
        errorAnswer(
          null,
          new ContentTypeNotSupportedError(
            `Unsupported Content-Type "${c.req.header("Content-Type")}"; expected application/json.`,
          ),
        ),
        400,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return c.json(
        {
          jsonrpc: "2.0",
          id: null,
          error: { code: A2A_ERROR_CODE.PARSE_ERROR, message: "Invalid JSON payload." },
        },
        400,
      );
    }
    if (!isJsonRpcRequest(body)) {
      return c.json({
        jsonrpc: "2.0",
        id: requestId(body),
        error: {
          code: A2A_ERROR_CODE.INVALID_REQUEST,
          message:
            'Request payload validation error: send a JSON-RPC 2.0 request object ({ "jsonrpc": "2.0", "id", "method", "params" }).',
        },
      });
    }
    const card = serviceAgentCard(originOf(c));
    const stop = new AbortController();
    const abort = () => stop.abort();
    c.req.raw.signal.addEventListener("abort", abort, { once: true });
    service.shutdown?.addEventListener("abort", abort, { once: true });
    const requestedVersion = c.req.header("A2A-Version");
    const context = new ServerCallContext({
      user: { isAuthenticated: true, userName: sender.kind },
      ...(requestedVersion ? { requestedVersion } : {}),
      state: new Map<string, unknown>([
        [CALL_SIGNAL, stop.signal],
        [CALL_SENDER, sender],
      ]),
    });
    const id = requestId(body);
    try {
      validateVersion(context.requestedVersion, card, "JSONRPC");
    } catch (error) {
      return c.json(errorAnswer(id, error));
    }
    const handler = new RunRequestHandler({ service, card, secret: await secret });
    const answer = await new JsonRpcTransportHandler(handler).handle(
      body as Record<string, unknown>,
      context,
    );
    if (!(Symbol.asyncIterator in answer)) return c.json(answer);
    const events = answer[Symbol.asyncIterator]();
    let first: IteratorResult<JsonRpcAnswer>;
    try {
      first = (await events.next()) as IteratorResult<JsonRpcAnswer>;
    } catch (error) {
      stop.abort();
      return c.json(errorAnswer(id, error));
    }
    const { keepAliveMs } = service.timing;
    // The next event, once asked for: a keep-alive comment may be sent while it is awaited.
    let next: Promise<IteratorResult<JsonRpcAnswer>> | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        if (!first.done) controller.enqueue(frame(first.value));
      },
      async pull(controller) {
        next ??= events.next() as Promise<IteratorResult<JsonRpcAnswer>>;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const quiet = new Promise<"quiet">((resolve) => {
          timer = setTimeout(() => resolve("quiet"), keepAliveMs);
        });
        try {
          const result = await Promise.race([next, quiet]);
          // Nothing for keepAliveMs: a comment (clients skip it) keeps proxies from closing.
          if (result === "quiet") return controller.enqueue(keepAlive);
          next = undefined;
          if (result.done) controller.close();
          else controller.enqueue(frame(result.value));
        } catch (error) {
          controller.enqueue(frame(errorAnswer(id, error), "error"));
          controller.close();
        } finally {
          clearTimeout(timer);
        }
      },
      async cancel() {
        stop.abort();
        await events.return?.(undefined);
      },
    });
    return c.body(stream, 200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache",
      "X-Accel-Buffering": "no",
    });
  };
  return { card, rpc };
}
