import { describe, expect, it } from "vitest";
import { sseBody } from "./sse-body.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const decoder = new TextDecoder();

/** Everything the body's reader reads until the stream ends. */
async function readAll(body: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of body) text += decoder.decode(chunk);
  return text;
}

describe("an event stream's body", () => {
  it("queues what is written until the client reads it, and ends once it is read", async () => {
    const { body, sink, end } = sseBody();
    expect([sink.write(bytes("a")), sink.write(bytes("b")), sink.write(bytes("c"))]).toEqual([
      1, 2, 3,
    ]);
    let drained = false;
    void sink.drained().then(() => {
      drained = true;
    });
    end();
    expect(sink.write(bytes("after the end"))).toBe(0);
    expect(await readAll(body)).toBe("abc");
    expect(drained).toBe(true);
  });

  it("cut off, drops what the client has not read and ends", async () => {
    const { body, sink, cut } = sseBody();
    const reader = body.getReader();
    sink.write(bytes("read"));
    expect(decoder.decode((await reader.read()).value)).toBe("read");
    for (let index = 0; index < 5; index++) sink.write(bytes("unread"));
    cut();
    const rest: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      rest.push(decoder.decode(next.value));
    }
    // At most the one chunk the stream had already taken.
    expect(rest.length).toBeLessThanOrEqual(1);
  });

  it("says when the client went away (it cancelled the body)", async () => {
    const { body, cancelled } = sseBody();
    expect(cancelled.aborted).toBe(false);
    await body.cancel();
    expect(cancelled.aborted).toBe(true);
  });
});
