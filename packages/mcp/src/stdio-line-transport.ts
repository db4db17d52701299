import type { Readable, Writable } from "node:stream";
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  parseJSONRPCMessage,
  type RequestId,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/server";

/** Options of {@link stdioLineTransport}. */
export interface StdioLineTransportOptions {
  /** The most bytes of one message (one line); a longer line is skipped (default 10 MiB). */
  maxMessageBytes?: number;
  /**
   * After the input ends, the longest wait in milliseconds for the answers to the requests
   * received before it (default 30 000); then the transport closes anyway.
   */
  drainTimeoutMs?: number;
}

/** A long-lived request (its answer ends a subscription), not waited for when the input ends. */
const LONG_LIVED_METHODS = new Set(["subscriptions/listen"]);

/** `number:1` / `string:1`: request ids of both types as distinct keys. */
const idKey = (id: RequestId) => `${typeof id}:${String(id)}`;

/** A JSON-RPC error answer that belongs to no request the server could read (`id: null`). */
function unreadable(code: number, message: string, id: RequestId | null = null) {
  return { jsonrpc: "2.0" as const, id, error: { code, message } };
}

/** The `id` of a message that is not valid JSON-RPC, when it has a usable one. */
function idOf(value: unknown): RequestId | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : null;
}

/**
 * The MCP stdio transport (newline-delimited JSON-RPC on `input` and `output`), with two promises
 * the SDK's `StdioServerTransport` does not keep:
 *
 * - **Everything received is answered.** When the input ends, the transport stays open until
 *   every request read before the end has been answered and written (a client may write its
 *   requests and close stdin at once: `printf '…\n…\n' | task-context-mcp .`), then closes.
 *   A last line without a newline is a message too.
 * - **Bad input is answered, not dropped.** A line over `maxMessageBytes` is skipped without
 *   being held in memory and answered `-32600` with `id: null`; a line that is not JSON is
 *   answered `-32700`, one that is not JSON-RPC `-32600` (with its `id` when it has one). The
 *   next line is served as usual.
 */
export function stdioLineTransport(
  input: Readable,
  output: Writable,
  {
    maxMessageBytes = STDIO_DEFAULT_MAX_BUFFER_SIZE,
    drainTimeoutMs = 30_000,
  }: StdioLineTransportOptions = {},
): Transport {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  /** The bytes of the line being read. */
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** True while skipping the rest of a line that passed the limit. */
  let skipping = false;
  let ended = false;
  let closed = false;
  let drainTimer: NodeJS.Timeout | undefined;
  /** Requests delivered and not answered yet. */
  const unanswered = new Set<string>();

  const write = (message: unknown) =>
    new Promise<void>((resolve, reject) => {
      output.write(serializeMessage(message as JSONRPCMessage), (error) =>
        error ? reject(error) : resolve(),
      );
    });

  const report = (error: unknown) =>
    transport.onerror?.(error instanceof Error ? error : new Error(String(error)));

  /** Answers a line the server cannot read itself. */
  const refuse = (answer: ReturnType<typeof unreadable>) => {
    if (!closed) write(answer).catch(report);
  };

  const closeWhenAnswered = () => {
    if (ended && unanswered.size === 0) void transport.close();
  };

  const handleLine = (bytes: Buffer) => {
    let text: string;
    try {
      text = decoder.decode(bytes).replace(/\r$/, "");
    } catch {
      refuse(
        unreadable(
          -32700,
          "Parse error: the line is not valid UTF-8. Send each message as one line of UTF-8 JSON.",
        ),
      );
      return;
    }
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      refuse(
        unreadable(
          -32700,
          "Parse error: the line is not valid JSON. Send each message as one line of JSON.",
        ),
      );
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      refuse(
        unreadable(
          -32600,
          'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message. Send {"jsonrpc": "2.0", "id": …, "method": …, "params": {…}} (a request), a notification without "id", or a response.',
          idOf(value),
        ),
      );
      return;
    }
    if (isJSONRPCRequest(message) && !LONG_LIVED_METHODS.has(message.method)) {
      unanswered.add(idKey(message.id));
    } else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (cancelled !== undefined) unanswered.delete(idKey(cancelled));
    }
    transport.onmessage?.(message);
  };

  const onData = (chunk: Buffer) => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!skipping && pendingBytes + (end - start) > maxMessageBytes) {
        pending = [];
        pendingBytes = 0;
        skipping = true;
        refuse(
          unreadable(
            -32600,
            `Invalid Request: a message longer than ${maxMessageBytes} bytes was received and skipped unread. Send messages of at most ${maxMessageBytes} bytes, one per line.`,
          ),
        );
      }
      if (!skipping) {
        pending.push(chunk.subarray(start, end));
        pendingBytes += end - start;
      }
      if (newline === -1) break;
      if (!skipping) handleLine(Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
      skipping = false;
      start = newline + 1;
    }
  };

  const onEnd = () => {
    if (ended || closed) return;
    if (!skipping && pendingBytes > 0) handleLine(Buffer.concat(pending));
    pending = [];
    pendingBytes = 0;
    ended = true;
    closeWhenAnswered();
    if (!closed) {
      drainTimer = setTimeout(() => {
        report(
          new Error(
            `${unanswered.size} request(s) were still unanswered ${drainTimeoutMs} ms after the input ended; closing.`,
          ),
        );
        void transport.close();
      }, drainTimeoutMs);
    }
  };

  const onInputError = (error: Error) => report(error);
  const onOutputError = (error: Error) => {
    report(error);
    void transport.close();
  };

  const transport: Transport = {
    async start() {
      input.on("data", onData);
      input.on("end", onEnd);
      input.on("close", onEnd);
      input.on("error", onInputError);
      output.on("error", onOutputError);
      if (input.readableEnded || input.destroyed) setImmediate(onEnd);
    },
    async send(message) {
      if (closed) throw new Error("The stdio transport is closed.");
      const answers =
        isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)
          ? message.id
          : undefined;
      try {
        await write(message);
      } finally {
        if (answers !== undefined && answers !== null) {
          unanswered.delete(idKey(answers));
          closeWhenAnswered();
        }
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (drainTimer !== undefined) clearTimeout(drainTimer);
      input.off("data", onData);
      input.off("end", onEnd);
      input.off("close", onEnd);
      input.off("error", onInputError);
      // A late write failure after closing (the client went away) has no one to tell.
      output.off("error", onOutputError);
      output.on("error", () => {});
      input.pause();
      transport.onclose?.();
    },
  };
  return transport;
}
