// The checker itself: it passes answers the document declares and refuses every other kind,
// naming the operation. Answers are built by hand against the service's real document.
import { describe, expect, it } from "vitest";
import { ContractChecker } from "./contract-checker.ts";
import { servedDocument } from "./document.ts";

const checker = new ContractChecker(await servedDocument());
const origin = "http://service.test";

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });

const error = (code: string) => ({ error: "What happened and what to do.", code });

/** An event stream answer that sends `chunks` and ends. */
function stream(...chunks: string[]): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    }),
    { headers: { "Content-Type": "text/event-stream" } },
  );
}

const event = {
  type: "run.created",
  id: "evt_1",
  seq: 1,
  run_id: "run_1",
  at: "2026-11-20T10:00:00.000Z",
  goal: "Publish an article",
  stage_ids: ["draft"],
};
const frame = (fields: Record<string, string>) =>
  `${Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n")}\n\n`;

describe("the contract checker", () => {
  it("passes a declared answer and records its operation and status", async () => {
    const answer = json({ status: "ok" });
    await expect(checker.check("GET", `${origin}/healthz`, answer)).resolves.toBe(answer);
    await checker.check(
      "GET",
      `${origin}/v1/schemas/work-item.v1`,
      json(error("SCHEMA_NOT_FOUND"), 404),
    );
    expect(checker.exercised.get("health")).toEqual(new Set([200]));
    expect(checker.exercised.get("getSchema")).toEqual(new Set([404]));
  });

  it("refuses a status the operation does not declare, naming the operation", async () => {
    await expect(
      checker.check("GET", `${origin}/healthz`, json(error("TEAPOT"), 418)),
    ).rejects.toThrow(
      /^The answer breaks the OpenAPI document: health \(GET \/healthz\) answered 418/,
    );
  });

  it("refuses a body that breaks the declared schema, with the field", async () => {
    await expect(
      checker.check("GET", `${origin}/healthz`, json({ status: "fine" })),
    ).rejects.toThrow(
      /health \(GET \/healthz\) answered 200 with a body that breaks its schema: \/status/,
    );
    await expect(
      checker.check("GET", `${origin}/v1/runs/run_1`, json({ error: "x" }, 404)),
    ).rejects.toThrow(
      /getRun \(GET \/v1\/runs\/\{run_id\}\) answered 404 .*must have required property 'code'/,
    );
    await expect(
      checker.check(
        "GET",
        `${origin}/healthz`,
        new Response("{", { headers: { "Content-Type": "application/json" } }),
      ),
    ).rejects.toThrow(/with a body that is not JSON/);
  });

  it("refuses an error code the response does not list", async () => {
    await expect(
      checker.check(
        "POST",
        `${origin}/v1/work-items/wi_1/heartbeat`,
        json(error("NOT_ON_OFFER"), 409),
      ),
    ).rejects.toThrow(
      /heartbeat .*answered 409 with a body that breaks its schema: \/code must be equal to one of the allowed values/,
    );
    await expect(
      checker.check(
        "POST",
        `${origin}/v1/work-items/wi_1/heartbeat`,
        json(error("LEASE_LOST"), 409),
      ),
    ).resolves.toBeInstanceOf(Response);
  });

  it("refuses a content type the response does not declare", async () => {
    await expect(
      checker.check(
        "GET",
        `${origin}/healthz`,
        new Response("ok", { headers: { "Content-Type": "text/plain" } }),
      ),
    ).rejects.toThrow(
      /answered 200 with Content-Type text\/plain, not one it declares \(application\/json\)/,
    );
  });

  it("refuses a body where the response declares none", async () => {
    const answer = new Response("{}", { status: 200 });
    await expect(
      checker.check("POST", `${origin}/v1/inbox/claim-next`, new Response(null, { status: 204 })),
    ).resolves.toBeInstanceOf(Response);
    await expect(checker.check("POST", `${origin}/v1/inbox/claim-next`, answer)).rejects.toThrow(
      /claimNext .*answered 200 with Content-Type/,
    );
  });

  it("refuses an answer without a header the response requires", async () => {
    await expect(
      checker.check("GET", `${origin}/healthz`, json(error("RATE_LIMITED"), 429)),
    ).rejects.toThrow(
      /health \(GET \/healthz\) answered 429 without its required header Retry-After/,
    );
    await expect(
      checker.check(
        "GET",
        `${origin}/healthz`,
        json(error("RATE_LIMITED"), 429, { "Retry-After": "soon" }),
      ),
    ).rejects.toThrow(/with a header Retry-After: soon that/);
    await expect(
      checker.check(
        "GET",
        `${origin}/healthz`,
        json(error("RATE_LIMITED"), 429, { "Retry-After": "10" }),
      ),
    ).resolves.toBeInstanceOf(Response);
  });

  it("wants 404 for a path the document does not list, 405 with Allow for a method it lacks", async () => {
    await checker.check("GET", `${origin}/v2/nothing`, json(error("NOT_FOUND"), 404));
    await checker.check(
      "DELETE",
      `${origin}/v1/inbox/poll`,
      json(error("METHOD_NOT_ALLOWED"), 405, { Allow: "GET" }),
    );
    await expect(
      checker.check("GET", `${origin}/v2/nothing`, json({ status: "ok" })),
    ).rejects.toThrow(
      /GET \/v2\/nothing \(no operation of the document\) answered 200 instead of 404/,
    );
    await expect(
      checker.check(
        "DELETE",
        `${origin}/v1/inbox/poll`,
        json(error("METHOD_NOT_ALLOWED"), 405, { Allow: "GET, POST" }),
      ),
    ).rejects.toThrow(/with Allow: GET, POST, not GET/);
    await expect(
      checker.check("GET", `${origin}/v2/nothing`, json({ message: "Not Found" }, 404)),
    ).rejects.toThrow(/with a body that is not an Error/);
  });

  it("checks an event stream frame by frame as it is read, skipping comments", async () => {
    const good = await checker.check(
      "GET",
      `${origin}/v1/runs/run_1/events`,
      stream(
        ": keep-alive\nretry: 1000\n\n",
        frame({ id: "1", event: "run.created", data: JSON.stringify(event) }).slice(0, 20),
        frame({ id: "1", event: "run.created", data: JSON.stringify(event) }).slice(20),
      ),
    );
    expect(await good.text()).toContain('"seq":1');

    const badData = await checker.check(
      "GET",
      `${origin}/v1/runs/run_1/events`,
      stream(frame({ id: "1", event: "run.created", data: JSON.stringify({ ...event, seq: 0 }) })),
    );
    await expect(badData.text()).rejects.toThrow(
      /listEvents \(GET \/v1\/runs\/\{run_id\}\/events\) answered 200 with an event stream frame that breaks its schema: data: .*\/seq must be >= 1/,
    );

    const noId = await checker.check(
      "GET",
      `${origin}/v1/runs/run_1/events`,
      stream(frame({ event: "run.created", data: JSON.stringify(event) })),
    );
    await expect(noId.text()).rejects.toThrow(/must have required property 'id'/);

    const retryAndEvent = await checker.check(
      "GET",
      `${origin}/v1/runs/run_1/events`,
      stream(
        `retry: 1000\n${frame({ id: "1", event: "run.created", data: JSON.stringify(event) })}`,
      ),
    );
    await expect(retryAndEvent.text()).rejects.toThrow(/must match exactly one schema in oneOf/);

    const crlf = await checker.check(
      "GET",
      `${origin}/v1/runs/run_1/events`,
      stream(
        "id: 1\r\nevent: run.created\r",
        `\ndata: ${JSON.stringify(event)}\r\n\r\n`,
        "data: {\r\n\r\n",
      ),
    );
    await expect(crlf.text()).rejects.toThrow(/must have required property 'id'/);
  });
});
