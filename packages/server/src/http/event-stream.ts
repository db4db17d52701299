import type { Context } from "hono";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { DeliveryStore } from "../delivery/delivery-store.ts";
import { endsRun } from "../delivery/rules.ts";
import type { RunFeeds } from "./run-feeds.ts";
import { sseBody } from "./sse-body.ts";
import { anySignal } from "./wait.ts";

/**
 * The seq to resume after: `Last-Event-ID` (what a reconnecting EventSource sends) wins over
 * `?after=`; neither → 0, the whole stream.
 */
export function resumeAfter(c: Context, after: number | undefined): number {
  const lastEventId = c.req.header("Last-Event-ID");
  if (lastEventId === undefined || lastEventId.trim() === "") return after ?? 0;
  if (!/^\d{1,15}$/.test(lastEventId.trim())) {
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message: `Last-Event-ID must be the seq of an event (a whole number ≥ 0), not "${lastEventId.slice(0, 40)}".`,
      issues: [
        { path: "/headers/last-event-id", message: "Last-Event-ID must be a whole number ≥ 0." },
      ],
    });
  }
  return Number(lastEventId.trim());
}

/**
 * Whether the run's event `lastSeq` ends it (`run.completed` or `run.canceled`), after which
 * nothing can happen.
 */
export async function isCompleted(
  store: DeliveryStore,
  runId: string,
  lastSeq: number,
): Promise<boolean> {
  if (lastSeq === 0) return false;
  const { events } = await store.events(runId, lastSeq - 1, 1);
  return endsRun(events[0]?.type ?? "");
}

/**
 * The run's events as Server-Sent Events from `after` on: `id: <seq>`, `event: <type>`,
 * `data: <event JSON>`; then new events as they happen, and a keep-alive comment when idle. The
 * stream ends after `run.completed` or `run.canceled`, the last event a run has, and when the client fell too far
 * behind (it resumes with Last-Event-ID). Live events come from the run's one reader in this
 * process ({@link RunFeeds}), written to every follower.
 */
export function eventStream(
  c: Context,
  feeds: RunFeeds,
  runId: string,
  after: number,
  shutdown: AbortSignal | undefined,
): Response {
  const stream = sseBody();
  // A reconnecting client waits a second, not EventSource's default three.
  stream.sink.write(opening);
  feeds.follow(runId, after, stream.sink, anySignal([stream.cancelled, shutdown])).then(
    // Too far behind: what it was sent and has not read is dropped with the stream.
    (end) => (end === "cut" ? stream.cut() : stream.end()),
    (error: unknown) => {
      // As Hono's streamSSE does with an error of its callback.
      console.error(error);
      stream.end();
    },
  );
  c.header("Transfer-Encoding", "chunked");
  c.header("Content-Type", "text/event-stream");
  c.header("Cache-Control", "no-cache");
  c.header("Connection", "keep-alive");
  // Proxies must not buffer the stream.
  c.header("X-Accel-Buffering", "no");
  return c.newResponse(stream.body);
}

const opening = new TextEncoder().encode(
  ": stream of run events; resume with Last-Event-ID\nretry: 1000\n\n",
);
