import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { DeliveryStore } from "../delivery/delivery-store.ts";
import { anySignal, type WaitTiming } from "./wait.ts";

/** How the event stream paces itself. */
export interface StreamTiming extends WaitTiming {
  /** A comment line at least this often when nothing else is sent (proxies close idle streams). */
  keepAliveMs: number;
}

const PAGE = 100;

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

/** Whether the run's event `lastSeq` is `run.completed`, after which nothing can happen. */
export async function isCompleted(
  store: DeliveryStore,
  runId: string,
  lastSeq: number,
): Promise<boolean> {
  if (lastSeq === 0) return false;
  const { events } = await store.events(runId, lastSeq - 1, 1);
  return events[0]?.type === "run.completed";
}

/**
 * The run's events as Server-Sent Events from `after` on: `id: <seq>`, `event: <type>`,
 * `data: <event JSON>`; then new events as they happen, and a keep-alive comment when idle. The
 * stream ends after `run.completed`, the last event a run has.
 */
export function eventStream(
  c: Context,
  store: DeliveryStore,
  runId: string,
  after: number,
  timing: StreamTiming,
  shutdown: AbortSignal | undefined,
): Response {
  // streamSSE sets `Cache-Control: no-cache` itself; proxies must not buffer the stream.
  c.header("X-Accel-Buffering", "no");
  return streamSSE(c, async (stream) => {
    const aborted = new AbortController();
    stream.onAbort(() => aborted.abort());
    const signal = anySignal([aborted.signal, shutdown]);
    let last = after;
    let lastWrite = timing.clock();
    // A reconnecting client waits a second, not EventSource's default three.
    await stream.write(": stream of run events; resume with Last-Event-ID\nretry: 1000\n\n");
    let completed = false;
    while (!signal.aborted && !completed) {
      const page = await store.events(runId, last, PAGE);
      // The time of sending: a write waits until the client reads it.
      if (page.events.length > 0) lastWrite = timing.clock();
      for (const event of page.events) {
        await stream.writeSSE({
          id: String(event.seq),
          event: event.type,
          data: JSON.stringify(event),
        });
        // Nothing follows a completed run: the stream ends (a reconnection then gets 204).
        if (event.type === "run.completed") completed = true;
      }
      if (completed) break;
      last = page.next_after;
      if (page.events.length === PAGE) continue;
      const idle = timing.clock() - lastWrite;
      if (idle >= timing.keepAliveMs) {
        lastWrite = timing.clock();
        await stream.write(": keep-alive\n\n");
        continue;
      }
      await store.changed(runId, last, {
        timeoutMs: Math.min(timing.keepAliveMs - idle, timing.recheckMs),
        signal,
      });
    }
  });
}
