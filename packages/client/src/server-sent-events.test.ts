import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createServerSentEventsParser } from "./server-sent-events.ts";

/** Every message of `pieces`, fed one after the other. */
function parse(...pieces: string[]) {
  const parser = createServerSentEventsParser();
  return { messages: pieces.flatMap((piece) => parser.push(piece)), retryMs: parser.retryMs };
}

describe("the Server-Sent Events parser", () => {
  it("reads the service's frames: comment, retry, then event, data and id", () => {
    const stream =
      ": stream of run events; resume with Last-Event-ID\nretry: 1000\n\n" +
      'event: run.created\ndata: {"seq":1}\nid: 1\n\n' +
      ": keep-alive\n\n" +
      'event: work_item.offered\ndata: {"seq":2}\nid: 2\n\n';
    expect(parse(stream)).toEqual({
      messages: [
        { event: "run.created", data: '{"seq":1}', id: "1" },
        { event: "work_item.offered", data: '{"seq":2}', id: "2" },
      ],
      retryMs: 1000,
    });
  });

  it("dispatches nothing before the blank line that ends a frame", () => {
    const parser = createServerSentEventsParser();
    expect(parser.push("event: run.created\ndata: {}\nid: 1\n")).toEqual([]);
    expect(parser.push("\n")).toEqual([{ event: "run.created", data: "{}", id: "1" }]);
  });

  it("ends lines with CRLF, LF or CR, also a CRLF split between two pieces", () => {
    expect(parse("data: a\r\n\r\ndata: b\r\rdata: c\n\n").messages.map((m) => m.data)).toEqual([
      "a",
      "b",
      "c",
    ]);
    expect(parse("data: a\r", "\n\r", "\n").messages).toEqual([
      { event: "message", data: "a", id: "" },
    ]);
  });

  it("joins data lines with a newline, drops one space after the colon, ignores unknown fields", () => {
    expect(parse("data:one\ndata:  two\ndata\nfoo: bar\n\n").messages).toEqual([
      { event: "message", data: "one\n two\n", id: "" },
    ]);
  });

  it("keeps the last id for the frames after it, and refuses an id with NUL or a retry that is not a number", () => {
    const { messages, retryMs } = parse(
      "id: 7\ndata: a\n\ndata: b\n\nid: 8\0\nretry: 1s\ndata: c\n\n",
    );
    expect(messages.map((message) => message.id)).toEqual(["7", "7", "7"]);
    expect(retryMs).toBeUndefined();
  });

  it("gives the same messages however the stream is cut into pieces", () => {
    const frame = fc.record({
      event: fc.constantFrom("run.created", "work_item.offered", "message"),
      data: fc.string({ unit: "grapheme" }).map((text) => text.replace(/[\r\n]/g, " ")),
      id: fc.nat().map(String),
    });
    fc.assert(
      fc.property(
        fc.array(frame, { maxLength: 8 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(), { maxLength: 10 }),
        (frames, newline, cuts) => {
          const text = frames
            .map(({ event, data, id }) =>
              [`event: ${event}`, `data: ${data}`, `id: ${id}`, ": comment", "", ""].join(newline),
            )
            .join("");
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort(
            (a, b) => a - b,
          );
          const pieces = [0, ...points, text.length]
            .slice(1)
            .map((end, index, ends) => text.slice(index === 0 ? 0 : ends[index - 1], end));
          expect(parse(...pieces).messages).toEqual(frames);
        },
      ),
    );
  });
});
