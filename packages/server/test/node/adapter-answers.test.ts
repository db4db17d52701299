// The answers the Node adapter gives itself — to requests the app never sees because no URL can
// be built from them or Node's parser refuses them — have the service's JSON error shape, its
// security headers and `Connection: close`, as raw sockets see them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../contract/harness.ts";
import { parseAnswer, rawConnection } from "./raw-http.ts";
import { overSocket } from "./services.ts";

/** The security headers every answer of the service carries. */
const securityHeaders = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

describe("the Node adapter's own answers", () => {
  let service: Service;
  let host: string;
  let expectedSecurity: Record<string, string>;
  beforeAll(async () => {
    service = await overSocket();
    host = new URL(service.baseUrl).host;
    const health = await fetch(`${service.baseUrl}/healthz`);
    expectedSecurity = Object.fromEntries(
      securityHeaders.map((name) => [name, health.headers.get(name) ?? "(absent)"]),
    );
  });
  afterAll(() => service.stop());

  const send = async (raw: string) => {
    const connection = await rawConnection(service.baseUrl);
    connection.socket.write(raw);
    return parseAnswer(await connection.closed());
  };

  const rows = [
    {
      name: "a Host with a space",
      head: () => "GET /healthz HTTP/1.1\r\nHost: a b\r\n",
      status: 400,
    },
    {
      name: "an unclosed IPv6 Host",
      head: () => "GET /healthz HTTP/1.1\r\nHost: [::1\r\n",
      status: 400,
    },
    { name: "an empty Host", head: () => "GET /healthz HTTP/1.1\r\nHost:\r\n", status: 400 },
    { name: "no Host on HTTP/1.1", head: () => "GET /healthz HTTP/1.1\r\n", status: 400 },
    {
      name: "two Hosts",
      head: () => `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\n`,
      status: 400,
    },
    {
      name: "a control character in Host",
      head: () => "GET /healthz HTTP/1.1\r\nHost: a\u0001b\r\n",
      status: 400,
    },
    {
      name: "a target that is not a path",
      head: () => `GET healthz HTTP/1.1\r\nHost: ${host}\r\n`,
      status: 400,
    },
    {
      name: "a malformed request line",
      head: () => `G@T /healthz HTTP/1.1\r\nHost: ${host}\r\n`,
      status: 400,
    },
    {
      name: "headers over Node's limit",
      head: () => `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nX-Padding: ${"x".repeat(20_000)}\r\n`,
      status: 431,
    },
  ];

  for (const row of rows) {
    it(`answers ${row.name} with ${row.status}, the JSON error shape and the security headers`, async () => {
      const answer = await send(`${row.head()}\r\n`);
      expect(answer.statusLine).toMatch(new RegExp(`^HTTP/1.1 ${row.status} `));
      expect(answer.headers["content-type"]).toBe("application/json");
      expect(answer.headers.connection).toBe("close");
      expect(
        Object.fromEntries(
          securityHeaders.map((name) => [name, answer.headers[name] ?? "(absent)"]),
        ),
      ).toEqual(expectedSecurity);
      const body = JSON.parse(answer.body);
      expect(Object.keys(body)).toEqual(["error", "code"]);
      expect(body.code).toBe("INVALID_REQUEST");
      expect(body.error).toMatch(/^The request/);
    });
  }

  it("still serves HTTP/1.0 without a Host, as the listening address", async () => {
    const answer = await send("GET /healthz HTTP/1.0\r\n\r\n");
    expect(answer.statusLine).toBe("HTTP/1.1 200 OK");
    expect(JSON.parse(answer.body)).toEqual({ status: "ok" });
  });
});
