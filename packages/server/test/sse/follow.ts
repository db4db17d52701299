// A run's event stream read by a real SSE client, the `eventsource` package: it parses the
// frames, reconnects by itself after its connection breaks, and sends Last-Event-ID when it does.
// No test framework here: the checker's benchmark uses it too.
import type { CollaborationEvent, CollaborationEventType } from "@task-context/protocols";
import { EventSource, type FetchLike } from "eventsource";

/** Every event type of the stream; `satisfies` fails to compile when the schema gains one. */
export const eventTypes = Object.keys({
  "run.created": true,
  "work_item.offered": true,
  "work_item.leased": true,
  "work_item.lease_expired": true,
  "work_item.completed": true,
  "work_item.failed": true,
  "work_item.dead_lettered": true,
  "work_item.requeued": true,
  "context.stale": true,
  "artifact.created": true,
  "review.feedback": true,
  "content.flagged": true,
  "stage.completed": true,
  "run.completed": true,
  "run.blocked": true,
  "run.resumed": true,
  "run.canceled": true,
  "agent.card_changed": true,
  "agent.card_check_failed": true,
} satisfies Record<CollaborationEventType, true>) as CollaborationEventType[];

/** One frame as the client dispatched it. */
export interface ReceivedFrame {
  /** The frame's `event:` (the listener it reached). */
  type: string;
  /** The client's `lastEventId` for the frame (its `id:`). */
  lastEventId: string;
  /** The frame's `data:`, parsed. */
  event: CollaborationEvent;
}

/** A request the client made to (re)connect. */
export interface StreamRequest {
  url: string;
  /** The Last-Event-ID header it sent, if any. */
  lastEventId: string | undefined;
  /** How many frames the client had dispatched when it made the request. */
  framesBefore: number;
}

/** A running client. */
export interface Follower {
  frames: ReceivedFrame[];
  requests: StreamRequest[];
  /** Frames that reached no typed listener (an `event:` the client was not told of). */
  untyped: MessageEvent[];
  /** Holds every (re)connection until `release()` (the test decides when it may resume). */
  hold(): void;
  release(): void;
  close(): void;
  /** Whether the client stopped: it gave up (a reconnection was refused), or was closed. */
  closed(): boolean;
}

/**
 * Opens an EventSource on `path` (e.g. `/v1/runs/{id}/events?after=3`) of the service at
 * `baseUrl(previous)` with `token` as bearer. `baseUrl` is called once per connection attempt —
 * `previous` is the base URL of the attempt before, undefined for the first — so the client
 * follows a server that moved, or moves on to another server when its own went away.
 */
export function followEvents(
  baseUrl: (previous: string | undefined) => string,
  path: string,
  token: string,
): Follower {
  const frames: ReceivedFrame[] = [];
  const requests: StreamRequest[] = [];
  const untyped: MessageEvent[] = [];
  // While held, each (re)connection waits for this promise; `open` resolves it.
  let gate: { promise: Promise<void>; open: () => void } | undefined;
  // The first attempt's base URL is looked up here (the EventSource needs a URL), each later
  // one's when the client reconnects.
  let base = baseUrl(undefined);
  let attempts = 0;
  const authorized: FetchLike = async (url, init) => {
    requests.push({
      url: String(url),
      lastEventId: init.headers["Last-Event-ID"],
      framesBefore: frames.length,
    });
    await gate?.promise;
    if (attempts++ > 0) base = baseUrl(base);
    const target = new URL(String(url));
    target.host = new URL(base).host;
    return fetch(target, {
      ...init,
      headers: { ...init.headers, Authorization: `Bearer ${token}` },
    });
  };
  const source = new EventSource(`${base}${path}`, { fetch: authorized });
  for (const type of eventTypes) {
    source.addEventListener(type, (message: MessageEvent<string>) => {
      frames.push({
        type,
        lastEventId: message.lastEventId,
        event: JSON.parse(message.data) as CollaborationEvent,
      });
    });
  }
  source.addEventListener("message", (message) => untyped.push(message));
  return {
    frames,
    requests,
    untyped,
    hold() {
      const held: { open: () => void } = { open: () => undefined };
      const promise = new Promise<void>((resolve) => {
        held.open = resolve;
      });
      gate = { promise, open: () => held.open() };
    },
    release() {
      gate?.open();
      gate = undefined;
    },
    close() {
      gate?.open();
      source.close();
    },
    closed: () => source.readyState === source.CLOSED,
  };
}
