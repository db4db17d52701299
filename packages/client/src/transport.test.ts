// What the real service never answers, so the client's tests against it cannot show: a proxy's
// error page, a code this client does not know, a success that is not JSON, a bad address.
import { ArgumentError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { createServiceClient } from "./service-client.ts";
import { ServiceError } from "./service-error.ts";

/** A client whose every request is answered by `answer`; `sent` records the requests. */
function answering(answer: () => Response, url = "https://service.test/base/") {
  const sent: Request[] = [];
  const client = createServiceClient({
    url,
    token: "secret",
    fetch: async (input, init) => {
      sent.push(new Request(input, init));
      return answer();
    },
  });
  return { client, sent };
}

async function errorOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!ServiceError.isInstance(error)) throw new Error(`expected a ServiceError, got ${error}`);
  return { status: error.status, code: error.code, message: error.message };
}

describe("the client's requests", () => {
  it("keeps the URL's path, encodes ids and queries, and sends the token and JSON", async () => {
    const { client, sent } = answering(() => Response.json({ offers: [] }));
    await client.poll({ wait: 5, limit: 2 });
    await client.getArtifact("run 1", "art/2");
    await client.heartbeat("wi_1", { attempt: 3 });
    expect(sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      "GET https://service.test/base/v1/inbox/poll?wait=5&limit=2",
      "GET https://service.test/base/v1/runs/run%201/artifacts/art%2F2",
      "POST https://service.test/base/v1/work-items/wi_1/heartbeat",
    ]);
    const heartbeat = sent[2];
    expect(Object.fromEntries(heartbeat?.headers ?? [])).toEqual({
      accept: "application/json",
      authorization: "Bearer secret",
      "content-type": "application/json",
    });
    expect(await heartbeat?.text()).toBe('{"attempt":3}');
  });

  it.each(["localhost:8787", "/v1", "ftp://service.test"])(
    "refuses %s, before sending anything",
    (url) => {
      let error: unknown;
      try {
        createServiceClient({ url });
      } catch (caught) {
        error = caught;
      }
      expect(ArgumentError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(
        `Invalid url: ${JSON.stringify(url)} is not an absolute http or https URL. Pass the service's address, e.g. http://127.0.0.1:8787.`,
      );
    },
  );
});

describe("answers outside the contract are UNEXPECTED_RESPONSE", () => {
  it("a proxy's error page", async () => {
    const page = () =>
      new Response("<html>Bad Gateway</html>", {
        status: 502,
        statusText: "Bad Gateway",
        headers: { "Content-Type": "text/html" },
      });
    expect(await errorOf(answering(page).client.health())).toEqual({
      status: 502,
      code: "UNEXPECTED_RESPONSE",
      message:
        "The service answered 502 Bad Gateway without the contract's error body { error, code }. Check that the URL is the delivery service's.",
    });
  });

  it("an error body with a code this client does not know keeps its message", async () => {
    const newer = () =>
      Response.json({ error: "Try later.", code: "SOMETHING_NEW" }, { status: 409 });
    expect(await errorOf(answering(newer).client.health())).toEqual({
      status: 409,
      code: "UNEXPECTED_RESPONSE",
      message: "Try later.",
    });
  });

  it("a success whose body is not JSON", async () => {
    const text = () => new Response("ok", { status: 200 });
    expect(await errorOf(answering(text).client.health())).toEqual({
      status: 200,
      code: "UNEXPECTED_RESPONSE",
      message:
        "The service answered 200 with a body that is not JSON. Check that the URL is the delivery service's.",
    });
  });
});

describe("ServiceError", () => {
  it("carries its code, is a TaskContextError, and is recognised across bundled copies", () => {
    const error = new ServiceError({ code: "LEASE_LOST", message: "Lost.", status: 409 });
    expect([error.name, error.code, error.status, error.message]).toEqual([
      "ServiceError",
      "LEASE_LOST",
      409,
      "Lost.",
    ]);
    const foreign = {
      [Symbol.for("task-context.error")]: true,
      [Symbol.for("task-context.error.ServiceError")]: true,
    };
    expect(ServiceError.isInstance(foreign)).toBe(true);
    expect(ServiceError.isInstance(new Error("x"))).toBe(false);
  });
});
