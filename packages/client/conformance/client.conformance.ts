// Conformance of @task-context/client's built output on Node 20, Node 24, Bun, Deno and workerd:
// the runtime's own fetch types (Request, Response, Headers, streams, AbortSignal) as the client
// uses them, against a stand-in for the service given as `fetch` (the contract suites of the
// server run the same client against the real service).
import { type CollaborationEvent, createServiceClient, ServiceError } from "@task-context/client";
import { describe, expect, it } from "vitest";

/** A client whose requests `answer` answers; `sent` records them. */
function clientAnswering(answer: (request: Request) => Response | Promise<Response>) {
  const sent: Request[] = [];
  const client = createServiceClient({
    url: "https://service.test/base/",
    token: "agent-token",
    retry: { retries: 2, backoffMs: 0 },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push(request.clone());
      return answer(request);
    },
  });
  return { client, sent };
}

/** An event of the stream, as the service sends it. */
function event(seq: number, type: string): Record<string, unknown> {
  return { id: `ev_${seq}`, seq, run_id: "run_1", at: "2026-11-29T00:00:00.000Z", type };
}

describe("@task-context/client", () => {
  it("sends the operation's method and path, the token and the JSON body", async () => {
    const { client, sent } = clientAnswering(() =>
      Response.json({ expires_at: "2026-11-29T00:01:00.000Z" }),
    );
    const answer = await client.heartbeat("wi 1/a", { attempt: 2 });
    expect(answer).toStrictEqual({ expires_at: "2026-11-29T00:01:00.000Z" });
    const request = sent[0] as Request;
    expect(`${request.method} ${request.url}`).toBe(
      "POST https://service.test/base/v1/work-items/wi%201%2Fa/heartbeat",
    );
    expect(request.headers.get("authorization")).toBe("Bearer agent-token");
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(await request.text()).toBe('{"attempt":2}');
  });

  it("answers undefined when claim-next found nothing on offer (204)", async () => {
    const { client, sent } = clientAnswering(() => new Response(null, { status: 204 }));
    expect(await client.claimNext({ wait: 5 })).toBe(undefined);
    expect((sent[0] as Request).url).toBe("https://service.test/base/v1/inbox/claim-next?wait=5");
  });

  it("throws a refusal as a ServiceError with the answer's status, code and message", async () => {
    const { client } = clientAnswering(() =>
      Response.json(
        { error: "The lease of attempt 1 was lost. Stop working on the item.", code: "LEASE_LOST" },
        { status: 409 },
      ),
    );
    const error = await client.heartbeat("wi_1", { attempt: 1 }).catch((thrown: unknown) => thrown);
    expect(ServiceError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: "ServiceError",
      status: 409,
      code: "LEASE_LOST",
      message: "The lease of attempt 1 was lost. Stop working on the item.",
    });
  });

  it("sends a 429 again after Retry-After, and a completion again with the same key when no answer came", async () => {
    let calls = 0;
    const { client, sent } = clientAnswering(() => {
      calls++;
      if (calls === 1) {
        const body = { error: "Too many requests: wait 0 s.", code: "RATE_LIMITED" };
        return Response.json(body, { status: 429, headers: { "Retry-After": "0" } });
      }
      if (calls === 2) throw new TypeError("fetch failed");
      return Response.json({ work_item_id: "wi_1", status: "completed", event_id: "ev_9" });
    });
    const done = await client.complete("wi_1", {
      attempt: 1,
      artifact: { media_type: "text/plain", content: "Lumen" },
    });
    expect(done).toStrictEqual({ work_item_id: "wi_1", status: "completed", event_id: "ev_9" });
    const keys = sent.map((request) => request.headers.get("idempotency-key"));
    expect(keys.length).toBe(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("follows the event stream, chunked anywhere, until run.completed", async () => {
    const frames = [event(1, "run.created"), event(2, "stage.completed"), event(3, "run.completed")]
      .map((data) => `id: ${data.seq}\nevent: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`)
      .join("");
    const bytes = new TextEncoder().encode(`retry: 0\n${frames}`);
    const { client, sent } = clientAnswering(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              // Cut the stream into pieces of 7 bytes: frames and characters split across reads.
              for (let start = 0; start < bytes.length; start += 7)
                controller.enqueue(bytes.slice(start, start + 7));
              controller.close();
            },
          }),
          { headers: { "Content-Type": "text/event-stream" } },
        ),
    );
    const seen: CollaborationEvent[] = [];
    for await (const item of client.followEvents("run_1")) seen.push(item);
    expect(seen.map((item) => `${item.seq} ${item.type}`)).toStrictEqual([
      "1 run.created",
      "2 stage.completed",
      "3 run.completed",
    ]);
    const request = sent[0] as Request;
    expect(request.url).toBe("https://service.test/base/v1/runs/run_1/events");
    expect(request.headers.get("accept")).toBe("text/event-stream");
    expect(request.headers.get("last-event-id")).toBe("0");
  });

  it("rejects at once with the reason of an aborted signal", async () => {
    const { client } = clientAnswering(() => Response.json({ offers: [] }));
    const controller = new AbortController();
    controller.abort(new Error("stopped by the test"));
    await expect(client.poll({ signal: controller.signal })).rejects.toThrow("stopped by the test");
  });
});
