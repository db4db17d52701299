/** One message of a Server-Sent Events stream. */
export interface ServerSentMessage {
  /** `event:`, or `"message"` when the message named none. */
  event: string;
  /** The `data:` lines, joined with `\n`. */
  data: string;
  /** The last `id:` seen so far in the stream (what `Last-Event-ID` resumes after). */
  id: string;
}

/** A parser fed the stream's text piece by piece. */
export interface ServerSentEventsParser {
  /** The messages completed by `text`, in order. */
  push(text: string): ServerSentMessage[];
  /** The last `retry:` the stream sent, in ms: how long to wait before reconnecting. */
  readonly retryMs: number | undefined;
}

/**
 * A Server-Sent Events parser as the HTML standard's `EventSource` parses (lines end with CRLF,
 * LF or CR; `:` starts a comment; a blank line dispatches; one space after the colon is dropped),
 * for a client that needs headers an `EventSource` cannot send.
 */
export function createServerSentEventsParser(): ServerSentEventsParser {
  let buffer = "";
  let afterCarriageReturn = false;
  let event = "";
  let data: string[] = [];
  let id = "";
  let retryMs: number | undefined;

  function line(text: string, messages: ServerSentMessage[]): void {
    if (text === "") {
      if (data.length > 0)
        messages.push({ event: event === "" ? "message" : event, data: data.join("\n"), id });
      event = "";
      data = [];
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
  }

  return {
    push(text) {
      if (text === "") return [];
      // A CR that ended the last piece ended a line; an LF starting this one is its CRLF's.
      buffer += afterCarriageReturn && text.startsWith("\n") ? text.slice(1) : text;
      afterCarriageReturn = false;
      const messages: ServerSentMessage[] = [];
      const lineEnd = /\r\n|\r|\n/g;
      let start = 0;
      for (let match = lineEnd.exec(buffer); match !== null; match = lineEnd.exec(buffer)) {
        line(buffer.slice(start, match.index), messages);
        start = lineEnd.lastIndex;
        afterCarriageReturn = match[0] === "\r" && start === buffer.length;
      }
      buffer = buffer.slice(start);
      return messages;
    },
    get retryMs() {
      return retryMs;
    },
  };
}
