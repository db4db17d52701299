import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { Hono } from "hono";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { errorResponse } from "../http/error-response.ts";
import { serviceSecureHeaders } from "../http/secure-headers.ts";
import { closingConnection } from "./unread-body.ts";

/**
 * What answers a request the app never sees, with the app's JSON error shape and security
 * headers: the error comes in the environment.
 */
const answers = new Hono<{ Bindings: { error: DeliveryError } }>()
  .use("*", serviceSecureHeaders)
  .all("*", (c) => errorResponse(c, c.env.error));

/**
 * The answer the Node adapter gives itself — to a request it cannot turn into a URL (a malformed
 * `Host`, an invalid target), or when answering failed outside the app — as every answer of the
 * service: `{ error, code }`, the same security headers, and `Connection: close` (what follows on
 * the connection cannot be trusted).
 */
export async function adapterErrorResponse(
  error: DeliveryError,
  status: number = error.status,
): Promise<Response> {
  const answer = await answers.fetch(new Request("http://adapter.invalid/"), { error });
  return closingConnection(
    status === answer.status
      ? answer
      : new Response(answer.body, { status, headers: answer.headers }),
  );
}

/** A request that names no valid host or target. */
export const badRequestTarget = (reason: string) =>
  new DeliveryError({
    code: "INVALID_REQUEST",
    message: `The request's Host header or target is not valid (${reason}). Send Host: <host>[:<port>] and a path starting with /.`,
  });

/** A failure outside the app, never with its message, which could leak internals. */
export const adapterFailure = () =>
  new DeliveryError({
    code: "INTERNAL_ERROR",
    message:
      "The service failed to answer this request. Try again; if it keeps failing, report it.",
  });

interface Refusal {
  status: number;
  message: string;
}

/** The answer to a request Node's HTTP parser could not read. */
const malformed: Refusal = {
  status: 400,
  message:
    "The request is not valid HTTP/1.1 (its request line, a header or its body framing could not be read).",
};

/** The answers to other refusals of Node's HTTP parser, by its error code. */
const parserRefusals: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: "The request's headers are too large. Send smaller headers.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message: "The request did not arrive in time. Send it again, faster.",
  },
};

/** `response` as the bytes of an HTTP/1.1 answer. */
async function rawResponse(response: Response): Promise<Buffer> {
  const body = Buffer.from(await response.arrayBuffer());
  const head = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}`];
  for (const [name, value] of response.headers) head.push(`${name}: ${value}`);
  head.push(`content-length: ${body.length}`, "", "");
  return Buffer.concat([Buffer.from(head.join("\r\n"), "latin1"), body]);
}

/**
 * Node's `clientError`: a request its parser refused (a control character in a header, a bad
 * request line, headers too large, a request that timed out). Answers in the service's shape
 * when nothing else is being written on the connection, then closes it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // `_httpMessage`: the answer Node is writing on this connection, if any (never cut into it).
  const busy = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || busy) {
    socket.destroy();
    return;
  }
  const { status, message } = parserRefusals[error.code ?? ""] ?? malformed;
  adapterErrorResponse(new DeliveryError({ code: "INVALID_REQUEST", message }), status)
    .then(rawResponse)
    .then(
      (bytes) => socket.end(bytes, () => socket.destroy()),
      () => socket.destroy(),
    );
}
