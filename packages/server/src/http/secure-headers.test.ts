import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { afterAll, describe, expect, it } from "vitest";
import { securedAnswer, securedHeaders, serviceSecureHeaders } from "./secure-headers.ts";

/** Hono's own middleware with the options the service had: what every answer must still carry. */
const honoSecureHeaders = secureHeaders({
  overwrite: false,
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    styleSrc: ["'unsafe-inline'"],
    frameAncestors: ["'none'"],
  },
});

const json = securedHeaders({ "content-type": "application/json" });
const noStore = securedHeaders({ "cache-control": "no-store", "content-type": "application/json" });

/** The same routes behind `middleware`; `fast` answers the JSON ones with securedAnswer. */
function app(middleware: MiddlewareHandler, fast: boolean) {
  const answerJson = (c: Context, body: object, status: 200 | 201, cached: boolean) => {
    if (fast) return securedAnswer(JSON.stringify(body), status, cached ? json : noStore);
    if (!cached) c.header("Cache-Control", "no-store");
    return c.json(body, status);
  };
  return new Hono()
    .use("*", middleware)
    .get("/json", (c) => answerJson(c, { a: 1, text: "é" }, 200, true))
    .post("/no-store", (c) => answerJson(c, { created: true }, 201, false))
    .get("/text", (c) => c.text("plain"))
    .get("/page", (c) => {
      c.header("Content-Security-Policy", "default-src 'self'");
      c.header("X-Powered-By", "someone");
      return c.html("<p>page</p>");
    })
    .get("/empty", (c) => c.body(null, 204));
}

const paths = ["/json", "/no-store", "/text", "/page", "/empty", "/nowhere"];

/** Status, header lines (without Date) and body of a request on a real Node server. */
async function rawAnswer(port: number, path: string) {
  return await new Promise<{ status: number; headers: string[]; body: string }>(
    (resolve, reject) => {
      const outgoing = httpRequest(
        { port, path, method: path === "/no-store" ? "POST" : "GET" },
        (incoming) => {
          let body = "";
          incoming.setEncoding("utf8");
          incoming.on("data", (chunk: string) => {
            body += chunk;
          });
          incoming.on("end", () => {
            const headers: string[] = [];
            for (let at = 0; at < incoming.rawHeaders.length; at += 2) {
              if (incoming.rawHeaders[at] !== "Date")
                headers.push(`${incoming.rawHeaders[at]}: ${incoming.rawHeaders[at + 1]}`);
            }
            resolve({ status: incoming.statusCode ?? 0, headers, body });
          });
        },
      );
      outgoing.on("error", reject);
      outgoing.end();
    },
  );
}

describe("the service's secure headers", () => {
  const servers: ReturnType<typeof createAdaptorServer>[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
  });

  it("are Hono's secureHeaders, header for header, on every kind of answer", async () => {
    const hono = app(honoSecureHeaders, false);
    for (const fast of [false, true]) {
      const ours = app(serviceSecureHeaders, fast);
      for (const path of paths) {
        const method = path === "/no-store" ? "POST" : "GET";
        const [expected, actual] = await Promise.all(
          [hono, ours].map((each) => each.request(path, { method })),
        );
        expect(actual?.status, path).toBe(expected?.status);
        expect([...(actual?.headers ?? [])], path).toEqual([...(expected?.headers ?? [])]);
        expect(await actual?.text(), path).toBe(await expected?.text());
      }
    }
  });

  // From a plain record Node writes Content-Length itself, after Connection and Keep-Alive; the
  // lines are the same, and the rest in the same order.
  const lengthLast = (lines: string[]) => [
    ...lines.filter((line) => !line.startsWith("Content-Length:")),
    ...lines.filter((line) => line.startsWith("Content-Length:")),
  ];

  it("write the same header lines on Node from a plain record", async () => {
    const ports = await Promise.all(
      [app(honoSecureHeaders, false), app(serviceSecureHeaders, true)].map(
        (each) =>
          new Promise<number>((resolve) => {
            const server = createAdaptorServer({ fetch: each.fetch });
            servers.push(server);
            server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
          }),
      ),
    );
    for (const path of paths) {
      const [expected, actual] = await Promise.all(ports.map((port) => rawAnswer(port, path)));
      expect({ ...actual, headers: lengthLast(actual?.headers ?? []) }, path).toEqual({
        ...expected,
        headers: lengthLast(expected?.headers ?? []),
      });
    }
    expect((await rawAnswer(ports[1] as number, "/json")).headers).toEqual([
      "content-security-policy: default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      "content-type: application/json",
      "cross-origin-opener-policy: same-origin",
      "cross-origin-resource-policy: same-origin",
      "origin-agent-cluster: ?1",
      "referrer-policy: no-referrer",
      "strict-transport-security: max-age=15552000; includeSubDomains",
      "x-content-type-options: nosniff",
      "x-dns-prefetch-control: off",
      "x-download-options: noopen",
      "x-frame-options: SAMEORIGIN",
      "x-permitted-cross-domain-policies: none",
      "x-xss-protection: 0",
      "Connection: keep-alive",
      "Keep-Alive: timeout=5",
      "Content-Length: 19",
    ]);
  });
});
