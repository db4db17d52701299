// The body of an event stream: a ReadableStream the runtime pulls from as its client reads, fed
// by a FollowerSink without waiting. Chunks wait in the sink's own queue until pulled, so that
// a follower cut off for reading too slowly drops what it has not read.

/** Where a follower's frames go: queued without waiting, read at the client's pace. */
export interface FollowerSink {
  /** Queues `bytes`; answers how many chunks are now queued and not yet read. */
  write(bytes: Uint8Array): number;
  /** Resolves once every chunk queued has been taken by the reader. */
  drained(): Promise<void>;
}

/** An event stream's body and how to feed and end it. */
export interface SseBody {
  body: ReadableStream<Uint8Array>;
  sink: FollowerSink;
  /** Aborts when the client cancels the body (it went away). */
  cancelled: AbortSignal;
  /** Ends the stream once what is queued has been read. */
  end(): void;
  /** Ends the stream now: what is queued and unread is dropped. */
  cut(): void;
}

/** A new event stream body (see the file's comment). */
export function sseBody(): SseBody {
  const queue: Uint8Array[] = [];
  const cancelled = new AbortController();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** The reader waits for a chunk: the next write goes straight to it. */
  let reading: (() => void) | undefined;
  let drained: Array<() => void> = [];
  let ending = false;
  let ended = false;
  const close = () => {
    if (ended) return;
    ended = true;
    queue.length = 0;
    reading?.();
    reading = undefined;
    for (const resolve of drained) resolve();
    drained = [];
    controller?.close();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(started) {
        controller = started;
      },
      pull(pulling) {
        const next = queue.shift();
        if (queue.length === 0) {
          for (const resolve of drained) resolve();
          drained = [];
        }
        if (next !== undefined) {
          pulling.enqueue(next);
          return;
        }
        if (ending) {
          close();
          return;
        }
        return new Promise<void>((resolve) => {
          reading = resolve;
        });
      },
      cancel() {
        ended = true;
        queue.length = 0;
        cancelled.abort();
      },
    },
    { highWaterMark: 1 },
  );
  const sink: FollowerSink = {
    write(bytes) {
      if (ended || ending) return 0;
      if (reading !== undefined) {
        controller?.enqueue(bytes);
        reading();
        reading = undefined;
        return 0;
      }
      queue.push(bytes);
      return queue.length;
    },
    drained() {
      if (queue.length === 0 || ended) return Promise.resolve();
      return new Promise((resolve) => drained.push(resolve));
    },
  };
  return {
    body,
    sink,
    cancelled: cancelled.signal,
    end() {
      ending = true;
      if (queue.length === 0) close();
    },
    cut: close,
  };
}
