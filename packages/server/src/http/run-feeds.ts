// The followers of runs' event streams, in one process (or isolate): one reader per run that
// waits for the run's next event, reads it once and writes it to every follower — instead of each
// stream waiting and reading on its own. A follower that resumes from an earlier seq catches up
// on its own pages first, then joins. A follower that does not read what it is sent is cut off
// once it is MAX_BEHIND frames behind, so that it never holds the others nor grows without bound:
// its stream ends, and the client resumes with Last-Event-ID.
import type { CollaborationEvent } from "@task-context/protocols";
import type { DeliveryStore } from "../delivery/delivery-store.ts";
import { endsRun } from "../delivery/rules.ts";
import type { FollowerSink } from "./sse-body.ts";
import { anySignal, type WaitTiming } from "./wait.ts";

/** How the event stream paces itself. */
export interface StreamTiming extends WaitTiming {
  /** A comment line at least this often when nothing else is sent (proxies close idle streams). */
  keepAliveMs: number;
}

/** Events read at a time; a run's reader keeps the frames of this many latest events too. */
const PAGE = 100;

/** An event's frame, kept by its run's reader for followers that catch up. */
interface Frame {
  seq: number;
  /** The run's last event: completed or canceled. */
  completed: boolean;
  bytes: Uint8Array;
}

/** An event as a {@link Frame}. */
function frameOf(event: CollaborationEvent): Frame {
  return { seq: event.seq, completed: endsRun(event.type), bytes: eventFrame(event) };
}

/** The frames a follower may have unread before it is cut off (default). */
export const MAX_BEHIND = 1000;

/** How a follow ended: the run completed, the follower left (or the server stops), or it was cut off. */
export type FollowEnd = "completed" | "left" | "cut";

/** A follower of a run's live events. */
interface Follower {
  sink: FollowerSink;
  /** The seq of the last event it was sent. */
  last: number;
  /** When it was last sent something (the service's clock): keep-alives are due from it. */
  lastWrite: number;
  end: (how: FollowEnd) => void;
  fail: (error: unknown) => void;
}

const encoder = new TextEncoder();
const keepAlive = encoder.encode(": keep-alive\n\n");

/** An event as one SSE frame (`event:`, `data:`, `id:`), as Hono's writeSSE writes it. */
export function eventFrame(event: CollaborationEvent): Uint8Array {
  // JSON.stringify writes no line breaks: one data line.
  return encoder.encode(
    `event: ${event.type}\ndata: ${JSON.stringify(event)}\nid: ${event.seq}\n\n`,
  );
}

/** Options of {@link RunFeeds}. */
export interface RunFeedsOptions {
  /** Aborts when the server stops: every follow ends. */
  shutdown?: AbortSignal | undefined;
  /** The frames a follower may have unread before it is cut off (default {@link MAX_BEHIND}). */
  maxBehind?: number;
  /**
   * `false`: each follower gets a reader of its own (default true: one per run). On Workers, where
   * a request may not do I/O for another (its RPC calls, its stream), a shared reader could not
   * outlive the request that started it.
   */
  shared?: boolean;
}

/**
 * The followers of every run's events in this process: one reader per run followed (see the
 * file's comment). {@link follow} is what one event stream does.
 */
export class RunFeeds {
  readonly #feeds = new Map<string, RunFeed>();
  readonly #store: DeliveryStore;
  readonly #timing: StreamTiming;
  readonly #shutdown: AbortSignal | undefined;
  readonly #maxBehind: number;
  readonly #shared: boolean;

  constructor(store: DeliveryStore, timing: StreamTiming, options: RunFeedsOptions = {}) {
    this.#shared = options.shared ?? true;
    this.#store = store;
    this.#timing = timing;
    this.#shutdown = options.shutdown;
    this.#maxBehind = options.maxBehind ?? MAX_BEHIND;
  }

  /** How many followers the run has here (caught up and joined). */
  followers(runId: string): number {
    return this.#feeds.get(runId)?.followers.size ?? 0;
  }

  /**
   * Sends `sink` the run's events after `after` as SSE frames, then each new one as it happens,
   * and a keep-alive comment when it has been sent nothing for `keepAliveMs` (counted from now:
   * call it once the stream's opening lines are written). Resolves when the
   * run completed (once `run.completed` is written), `signal` aborts or the server stops
   * (`"left"`), or the follower fell {@link MAX_BEHIND} frames behind (`"cut"`: end its stream).
   * Rejects with the store's error when reading the run fails.
   */
  async follow(
    runId: string,
    after: number,
    sink: FollowerSink,
    signal: AbortSignal,
  ): Promise<FollowEnd> {
    const gone = anySignal([signal, this.#shutdown]);
    if (gone.aborted) return "left";
    let lastWrite = this.#timing.clock();
    const left = new Promise<"left">((resolve) => {
      gone.addEventListener("abort", () => resolve("left"), { once: true });
    });
    const feed = this.#feed(runId);
    feed.joining += 1;
    let joined = false;
    try {
      let last = after;
      // Catching up — from the frames the run's reader keeps, else on its own pages — then
      // joining once level with the reader (no await between).
      for (;;) {
        const tail = feed.tail ?? (await feed.started);
        if (last >= tail) break;
        const frames = feed.framesAfter(last) ?? (await this.#page(runId, last));
        lastWrite = this.#timing.clock();
        for (const frame of frames) {
          sink.write(frame.bytes);
          if (frame.completed) return "completed";
        }
        // At the client's pace; one that goes away leaves the drain pending.
        if ((await Promise.race([sink.drained(), left])) === "left") return "left";
        // What there was is sent even when the server stops meanwhile; then the stream ends.
        if (frames.length === 0 || gone.aborted) break;
        last = (frames.at(-1) as Frame).seq;
      }
      if (gone.aborted) return "left";
      joined = true;
      feed.joining -= 1;
      return await new Promise<FollowEnd>((resolve, reject) => {
        const follower: Follower = {
          sink,
          last,
          lastWrite,
          end: (how) => {
            gone.removeEventListener("abort", onAbort);
            feed.leave(follower);
            resolve(how);
          },
          fail: (error) => {
            gone.removeEventListener("abort", onAbort);
            feed.leave(follower);
            reject(error);
          },
        };
        const onAbort = () => follower.end("left");
        gone.addEventListener("abort", onAbort, { once: true });
        feed.join(follower);
      });
    } finally {
      if (!joined) {
        feed.joining -= 1;
        feed.leftWithoutJoining();
      }
    }
  }

  /** A page of the run's events after `after`, as frames. */
  async #page(runId: string, after: number): Promise<Frame[]> {
    return (await this.#store.events(runId, after, PAGE)).events.map(frameOf);
  }

  #feed(runId: string): RunFeed {
    let feed = this.#shared ? this.#feeds.get(runId) : undefined;
    if (feed === undefined) {
      const created = new RunFeed(runId, this.#store, this.#timing, this.#maxBehind, () => {
        if (this.#feeds.get(runId) === created) this.#feeds.delete(runId);
      });
      if (this.#shared) this.#feeds.set(runId, created);
      feed = created;
      feed.start(this.#shutdown);
    }
    return feed;
  }
}

/** One run's reader and its followers. */
class RunFeed {
  readonly followers = new Set<Follower>();
  /** Follows catching up or about to join: the reader waits for them. */
  joining = 0;
  /** The seq up to which every joined follower has been sent the run's events. */
  tail: number | undefined;
  /** Resolves with the first tail (the run's last seq when the reader started). */
  started: Promise<number> = Promise.resolve(0);
  /** The frames of the run's latest events (at most PAGE), oldest first, up to `tail`. */
  #recent: Frame[] = [];
  /** Every event after it, up to `tail`, is in #recent. */
  #recentAfter = 0;
  /** Aborts the reader's wait once nobody follows. */
  readonly #idle = new AbortController();
  readonly #runId: string;
  readonly #store: DeliveryStore;
  readonly #timing: StreamTiming;
  readonly #maxBehind: number;
  readonly #ended: () => void;
  #done = false;
  /** Why the reader stopped, when reading the run failed. */
  #failure: unknown;

  constructor(
    runId: string,
    store: DeliveryStore,
    timing: StreamTiming,
    maxBehind: number,
    ended: () => void,
  ) {
    this.#runId = runId;
    this.#store = store;
    this.#timing = timing;
    this.#maxBehind = maxBehind;
    this.#ended = ended;
  }

  start(shutdown: AbortSignal | undefined): void {
    const signal = anySignal([this.#idle.signal, shutdown]);
    // The run's latest events, kept: followers that resume near the end read none.
    this.started = this.#store.lastSeq(this.#runId).then(async (seq) => {
      const after = Math.max(0, seq - PAGE);
      const page = await this.#store.events(this.#runId, after, PAGE);
      this.#recent = page.events.map(frameOf);
      this.#recentAfter = after;
      this.tail = page.next_after;
      return page.next_after;
    });
    this.started.catch(() => {});
    this.#read(signal).catch((error: unknown) => {
      this.#failure = error;
      this.#finish();
      for (const follower of [...this.followers]) follower.fail(error);
    });
  }

  /** The kept frames after `after` (none when it is the tail), or undefined when not kept. */
  framesAfter(after: number): Frame[] | undefined {
    if (after < this.#recentAfter) return undefined;
    return this.#recent.filter((frame) => frame.seq > after);
  }

  join(follower: Follower): void {
    // Only a failed reader is done while someone joins.
    if (this.#done) follower.fail(this.#failure);
    else this.followers.add(follower);
  }

  leave(follower: Follower): void {
    this.followers.delete(follower);
    this.leftWithoutJoining();
  }

  /** Nobody follows nor joins: the reader stops. */
  leftWithoutJoining(): void {
    if (this.followers.size === 0 && this.joining === 0) {
      this.#finish();
      this.#idle.abort();
    }
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#ended();
  }

  /** Waits for the run's next event, reads it once and sends it to every follower, until none. */
  async #read(signal: AbortSignal): Promise<void> {
    let tail = await this.started;
    while (!signal.aborted) {
      await this.#store.changed(this.#runId, tail, { timeoutMs: this.#nextWaitMs(), signal });
      if (signal.aborted) break;
      for (;;) {
        const page = await this.#store.events(this.#runId, tail, PAGE);
        this.#send(page.events);
        tail = page.next_after;
        this.tail = tail;
        if (page.events.length < PAGE) break;
      }
      this.#keepAlive();
    }
  }

  /** Until the next look: the safety recheck, or sooner when a keep-alive is due. */
  #nextWaitMs(): number {
    const now = this.#timing.clock();
    let wait = this.#timing.recheckMs;
    for (const follower of this.followers) {
      wait = Math.min(wait, follower.lastWrite + this.#timing.keepAliveMs - now);
    }
    return Math.max(0, wait);
  }

  /**
   * Writes each event to every follower that has not had it, ending them after run.completed,
   * and keeps its frame.
   */
  #send(events: readonly CollaborationEvent[]): void {
    if (events.length === 0) return;
    const now = this.#timing.clock();
    for (const event of events) {
      const frame = frameOf(event);
      this.#recent.push(frame);
      for (const follower of this.followers) {
        if (event.seq <= follower.last) continue;
        follower.last = event.seq;
        follower.lastWrite = now;
        this.#write(follower, frame.bytes);
        if (frame.completed) follower.end("completed");
      }
    }
    const dropped = this.#recent.length - PAGE;
    if (dropped > 0) {
      this.#recentAfter = (this.#recent[dropped - 1] as Frame).seq;
      this.#recent = this.#recent.slice(dropped);
    }
  }

  /**
   * A keep-alive to each follower sent nothing for `keepAliveMs`, and with it to those sent
   * nothing for half as long (one wake-up serves many).
   */
  #keepAlive(): void {
    const now = this.#timing.clock();
    const { keepAliveMs } = this.#timing;
    let due = false;
    for (const follower of this.followers) {
      if (now - follower.lastWrite >= keepAliveMs) due = true;
    }
    if (!due) return;
    for (const follower of this.followers) {
      if (now - follower.lastWrite < keepAliveMs / 2) continue;
      follower.lastWrite = now;
      this.#write(follower, keepAlive);
    }
  }

  /** Sends without waiting; a follower too far behind is cut off. */
  #write(follower: Follower, bytes: Uint8Array): void {
    if (follower.sink.write(bytes) > this.#maxBehind) follower.end("cut");
  }
}
