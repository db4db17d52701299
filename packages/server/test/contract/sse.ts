// Reads a Server-Sent Events response frame by frame, with Web streams only (any runtime).
import type { Client } from "./client.ts";
import { EVENTUALLY } from "./harness.ts";

/** One frame: a comment, or an event with its fields. */
export interface Frame {
  comment?: string;
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
}

/** An open event stream. */
export interface EventStreamReader {
  status: number;
  headers: Headers;
  /** The next frame; fails with "blocked" when none comes within `timeoutMs` (default 15 s, a guard). */
  next(timeoutMs?: number): Promise<Frame>;
  /** The next event frame, skipping comments. */
  nextEvent(timeoutMs?: number): Promise<Frame>;
  close(): Promise<void>;
}

/** Opens `GET /v1/runs/{run_id}/events` as a stream. */
export async function openEventStream(
  client: Client,
  runId: string,
  { after, lastEventId, view }: { after?: number; lastEventId?: string; view?: string } = {},
): Promise<EventStreamReader> {
  const controller = new AbortController();
  const headers: Record<string, string> = { Accept: "text/event-stream" };
  if (client.token !== undefined) headers.Authorization = `Bearer ${client.token}`;
  if (lastEventId !== undefined) headers["Last-Event-ID"] = lastEventId;
  const response = await client.service.fetch(
    client.url(`/v1/runs/${runId}/events`, {
      ...(after === undefined ? {} : { after }),
      ...(view === undefined ? {} : { view }),
    }),
    { headers, signal: controller.signal },
  );
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const frames: Frame[] = [];
  // A read that outlived a timed-out next(): the following next() takes its chunk.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;

  const parse = () => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end === -1) return;
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const frame: Frame = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) frame.comment = line.slice(1).trim();
        const match = /^(id|event|data|retry): ?(.*)$/.exec(line);
        if (match === null) continue;
        const [, field, value] = match as unknown as [string, keyof Frame, string];
        frame[field] =
          field === "data" && frame.data !== undefined ? `${frame.data}\n${value}` : value;
      }
      frames.push(frame);
    }
  };

  const next = async (timeoutMs = EVENTUALLY.timeout): Promise<Frame> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const blocked = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("blocked: no frame arrived")), timeoutMs);
    });
    try {
      while (frames.length === 0) {
        if (reader === undefined) throw new Error("the answer has no body");
        pending ??= reader.read();
        const chunk = await Promise.race([pending, blocked]);
        pending = undefined;
        if (chunk.done) throw new Error("the stream ended");
        buffer += decoder.decode(chunk.value, { stream: true });
        parse();
      }
      return frames.shift() as Frame;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  };

  return {
    status: response.status,
    headers: response.headers,
    next,
    async nextEvent(timeoutMs) {
      for (;;) {
        const frame = await next(timeoutMs);
        if (frame.comment === undefined) return frame;
      }
    },
    async close() {
      controller.abort();
      await reader?.cancel().catch(() => undefined);
    },
  };
}
