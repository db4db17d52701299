import { describe, expect, it } from "vitest";
import { createAgentFetch } from "./agent-fetch.ts";

/** A `fetch` that answers `chunks` as an event stream (or JSON), whatever is asked. */
const answering =
  (chunks: string[], contentType = "text/event-stream"): typeof fetch =>
  async () =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      { status: 200, headers: { "content-type": contentType } },
    );

async function read(chunks: string[], maxBytes: number, contentType?: string) {
  const agentFetch = createAgentFetch(maxBytes, answering(chunks, contentType));
  const response = await agentFetch.fetch("http://agent.test/");
  const text = await response.text().catch((error: Error) => `error: ${error.message}`);
  return { text, exchange: agentFetch.last() };
}

describe("createAgentFetch", () => {
  it("passes events of at most the limit each, whatever their line ends, and notes the status", async () => {
    const events = ["data: 12345\n\n", "data: 1234", "5\r\n\r\ndata: 12", "345\r\rdata: 12345\n\n"];
    const { text, exchange } = await read(events, 11);
    expect(text).toBe(events.join(""));
    expect(exchange).toEqual({ status: 200, statusText: "" });
  });

  it("stops at the first event over the limit, counting across chunks and lines", async () => {
    expect(await read(["data: 12345\n", "data: 6\n\n"], 17)).toEqual({
      text: "error: An event of the stream is larger than 17 bytes.",
      exchange: { status: 200, statusText: "", tooLarge: true },
    });
  });

  it("stops an answer that is not a stream past the limit", async () => {
    const { text, exchange } = await read(
      ['{"a":"', "x".repeat(100), '"}'],
      64,
      "application/json",
    );
    expect([text, exchange?.tooLarge]).toEqual([
      "error: The answer is larger than 64 bytes.",
      true,
    ]);
  });

  it("notes that nothing answered", async () => {
    const refused = new TypeError("fetch failed");
    const agentFetch = createAgentFetch(10, async () => {
      throw refused;
    });
    await expect(agentFetch.fetch("http://agent.test/")).rejects.toBe(refused);
    expect(agentFetch.last()).toEqual({ unreachable: refused });
  });
});
