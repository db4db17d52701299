import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { getRequestListener, type HttpBindings, RequestError } from "@hono/node-server";
import {
  adapterErrorResponse,
  adapterFailure,
  answerClientError,
  badRequestTarget,
} from "./adapter-errors.ts";
import { continueWhenRead } from "./expect-continue.ts";
import { closingConnection, type DrainLimits, drainUnreadBody } from "./unread-body.ts";

/** How long an idle keep-alive connection stays open (see its use). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** What answers a request: the app's `fetch`, with Node's request and response as its env. */
export type NodeFetch = (request: Request, env: HttpBindings) => Response | Promise<Response>;

/** How the server treats what the app leaves unread, and the host it serves HTTP/1.0 as. */
export interface NodeHttpOptions {
  /** A body left unread by an answer is read and discarded within these limits, or the connection closes. */
  drain: DrainLimits;
  /** The host of a request without a `Host` header (HTTP/1.0 only; HTTP/1.1 must send one). */
  hostname: string;
  /** Told about a failure outside the app that became a 500 (the answer never carries it). */
  onUnexpectedError?: ((error: unknown) => void) | undefined;
}

/** The `Host` problem of an HTTP/1.1 request (none, empty, or more than one), if any. */
function hostProblem(incoming: IncomingMessage): string | undefined {
  if (incoming.httpVersion !== "1.1") return undefined;
  let hosts = 0;
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
    if (incoming.rawHeaders[index]?.toLowerCase() === "host") hosts += 1;
  }
  if (hosts === 0 || incoming.headers.host?.trim() === "") return "no Host header";
  return hosts > 1 ? "more than one Host header" : undefined;
}

/**
 * A `node:http` server over the app that keeps every connection usable after any answer:
 * - a body the answer leaves unread is drained within `drain` before the answer goes out, so the
 *   connection serves the next request; when it cannot be, the answer says `Connection: close`
 *   and the connection closes once it is sent — never a keep-alive answer followed by a close;
 * - `Expect: 100-continue` gets `100 Continue` only when the app starts reading the body, so a
 *   request it refuses first is refused before any upload (and its connection closed);
 * - a request it cannot route (a malformed or missing `Host`, a target that is not a path,
 *   malformed HTTP) and a failure outside the app get the app's JSON error shape and headers.
 */
export function createNodeHttpServer(fetch: NodeFetch, options: NodeHttpOptions): Server {
  /** Requests sent with `Expect: 100-continue`, and whether their 100 Continue went out. */
  const expecting = new WeakMap<IncomingMessage, { continued: boolean }>();

  const answer = async (request: Request, env: HttpBindings): Promise<Response> => {
    const { incoming, outgoing } = env;
    const problem = hostProblem(incoming);
    if (problem !== undefined) return adapterErrorResponse(badRequestTarget(problem));
    const expectation = expecting.get(incoming);
    const response = await fetch(
      expectation === undefined
        ? request
        : continueWhenRead(request, () => {
            expectation.continued = true;
            if (!outgoing.headersSent) outgoing.writeContinue();
          }),
      env,
    );
    // Refused without inviting the body: the client may still send it, or not; close.
    if (expectation !== undefined && !expectation.continued) return closingConnection(response);
    return (await drainUnreadBody(incoming, request, options.drain))
      ? response
      : closingConnection(response);
  };

  const listener = getRequestListener((request, env) => answer(request, env as HttpBindings), {
    // The adapter's own cleanup stays on: it gives the app a body that is read from the
    // connection only when pulled, which leaves an unread body to the drain above.
    hostname: options.hostname,
    errorHandler: (error) => {
      if (error instanceof RequestError)
        return adapterErrorResponse(badRequestTarget(error.message));
      options.onUnexpectedError?.(error);
      return adapterErrorResponse(adapterFailure());
    },
  }) as (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;

  // Node's own bare 400 for a missing Host is replaced by the JSON answer above.
  const server = createServer({ requireHostHeader: false }, listener);
  // An idle connection is closed by its client first: clients keep one for a few seconds less
  // than the server's Keep-Alive hint, and a busy client's timer can lag that margin, sending
  // its next request on a connection Node's default (5 s) has just closed ("other side
  // closed"). 65 s, as proxies and load balancers expect of the servers behind them.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  server.on("checkContinue", (incoming: IncomingMessage, outgoing: ServerResponse) => {
    expecting.set(incoming, { continued: false });
    void listener(incoming, outgoing);
  });
  server.on("clientError", answerClientError);
  return server;
}
