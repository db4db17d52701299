import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";

/** How much of a request body the server reads and discards to keep its connection open. */
export interface DrainLimits {
  /** At most this many bytes (a body that declares more is not read at all). */
  maxBytes: number;
  /** Within this many milliseconds. */
  maxMs: number;
}

const timedOut = Symbol("timed out");

/**
 * Reads and discards what is left of a request's body after its answer is ready, so that the
 * connection can serve the next request: true once the whole body has arrived; false when it
 * declares or sends more than `maxBytes`, has not arrived within `maxMs`, is held by a reader
 * that stopped half-way, or the connection failed — then the answer must say
 * `Connection: close`. `request` is the request the app was given: its body (null for GET and
 * HEAD, whose body the app never sees) is asked for only when some of it is still to come (on
 * Node, asking builds the whole WHATWG request), and is read, never cancelled (that would end the
 * connection before the answer).
 */
export async function drainUnreadBody(
  incoming: IncomingMessage,
  request: Pick<Request, "body">,
  limits: DrainLimits,
): Promise<boolean> {
  if (incoming.complete) return true;
  if (incoming.destroyed || Number(incoming.headers["content-length"]) > limits.maxBytes) {
    return false;
  }
  const stream = request.body ?? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
  if (stream.locked) return false;
  const reader = stream.getReader();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), limits.maxMs);
  });
  try {
    for (let bytes = 0; bytes <= limits.maxBytes; ) {
      const read = reader.read();
      read.catch(() => {}); // a read still pending when the lock is released below
      const next = await Promise.race([read, deadline]);
      if (next === timedOut) return false;
      if (next.done) return true;
      bytes += next.value.byteLength;
    }
    return false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}

/**
 * `response` with `Connection: close`: Node's server then closes the connection once the answer
 * is sent, and the client knows not to reuse it.
 */
export function closingConnection(response: Response): Response {
  try {
    response.headers.set("Connection", "close");
    return response;
  } catch {
    // A response whose headers are immutable (Response.error(), a fetched response).
    const copy = new Response(response.body, response);
    copy.headers.set("Connection", "close");
    return copy;
  }
}
