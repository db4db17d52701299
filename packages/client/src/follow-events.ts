import type { CollaborationEvent } from "./generated/schemas.ts";
import { createServerSentEventsParser } from "./server-sent-events.ts";
import { ServiceError } from "./service-error.ts";
import { sleep } from "./sleep.ts";
import type { Send } from "./transport.ts";

/** How a run's event stream is followed. */
export interface FollowEventsOptions {
  /** The seq of the last event already seen: the stream starts after it. @default 0 */
  after?: number;
  /** Ends the stream: the iteration throws the signal's reason and the connection is closed. */
  signal?: AbortSignal;
  /**
   * Reconnections in a row that may fail (no answer) before the iteration throws the
   * `NETWORK_ERROR`; a connection that opens starts the count again. @default 10
   */
  reconnects?: number;
}

/** How long to wait before reconnecting when the service has not said (`retry:`). */
const DEFAULT_RETRY_MS = 1000;

/**
 * A run's events, in seq order, from the Server-Sent Events stream at `path`, until
 * `run.completed` or `run.canceled`. When the connection ends or breaks, it reconnects after the service's
 * `retry:` with `Last-Event-ID`, so no event is missed or repeated. The first connection's
 * failure, and every refusal of the service, is thrown.
 */
export async function* followEvents(
  send: Send,
  path: string,
  options: FollowEventsOptions = {},
): AsyncGenerator<CollaborationEvent, void, undefined> {
  const { signal } = options;
  const reconnects = options.reconnects ?? 10;
  let last = String(options.after ?? 0);
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  let connected = false;
  for (;;) {
    let response: Response;
    try {
      response = await send(
        {
          method: "GET",
          path,
          accept: "text/event-stream",
          headers: { "Last-Event-ID": last },
          signal,
        },
        async (answer) => answer,
      );
    } catch (error) {
      const dropped = ServiceError.isInstance(error) && error.code === "NETWORK_ERROR";
      if (!dropped || !connected || ++failures > reconnects) throw error;
      await sleep(retryMs, signal);
      continue;
    }
    // 204: the run completed (or was canceled) and `last` was its last event.
    if (response.status === 204 || response.body === null) return;
    connected = true;
    failures = 0;
    const parser = createServerSentEventsParser();
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const chunk = await reader.read().catch(() => undefined);
        if (chunk === undefined && signal?.aborted) throw signal.reason;
        // Ended, or broke: resume after `last`.
        if (chunk === undefined || chunk.done) break;
        const messages = parser.push(decoder.decode(chunk.value, { stream: true }));
        retryMs = parser.retryMs ?? retryMs;
        for (const message of messages) {
          let event: CollaborationEvent;
          try {
            event = JSON.parse(message.data) as CollaborationEvent;
          } catch (error) {
            throw new ServiceError({
              code: "UNEXPECTED_RESPONSE",
              message: `The event stream sent data that is not JSON (after event ${last}). Check that the URL is the delivery service's.`,
              status: response.status,
              cause: error,
            });
          }
          last = message.id === "" ? String(event.seq) : message.id;
          yield event;
          // Nothing follows it: the service ends the stream.
          if (event.type === "run.completed" || event.type === "run.canceled") return;
        }
      }
    } finally {
      // Also when the caller stops iterating: the connection closes.
      await reader.cancel().catch(() => undefined);
    }
    await sleep(retryMs, signal);
  }
}
