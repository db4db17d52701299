// `Expect: 100-continue`: the Node server invites the body (100 Continue) only once it reads it,
// so a request it refuses first gets its refusal — and no invitation — before any upload.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../contract/harness.ts";
import { parseAnswer, rawConnection } from "./raw-http.ts";
import { overSocket } from "./services.ts";

describe("Expect: 100-continue on the Node server", () => {
  let service: Service;
  beforeAll(async () => {
    service = await overSocket();
  });
  afterAll(() => service.stop());

  const head = (target: string, headers: Record<string, string>) =>
    [
      `POST ${target} HTTP/1.1`,
      `Host: ${new URL(service.baseUrl).host}`,
      "Expect: 100-continue",
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      "",
      "",
    ].join("\r\n");

  const refusals = [
    {
      name: "a Content-Length over the body limit",
      target: "/v1/runs",
      headers: () => ({
        Authorization: `Bearer ${service.adminToken}`,
        "Content-Length": "2000000",
      }),
      status: "413 Payload Too Large",
      code: "PAYLOAD_TOO_LARGE",
    },
    {
      name: "no token",
      target: "/v1/runs",
      headers: () => ({ "Content-Length": "1000" }),
      status: "401 Unauthorized",
      code: "UNAUTHORIZED",
    },
    {
      name: "a wrong token",
      target: "/v1/runs",
      headers: () => ({ Authorization: "Bearer wrong", "Content-Length": "1000" }),
      status: "401 Unauthorized",
      code: "UNAUTHORIZED",
    },
    {
      name: "an unknown path",
      target: "/v1/nothing-here",
      headers: () => ({ Authorization: `Bearer ${service.adminToken}`, "Content-Length": "1000" }),
      status: "404 Not Found",
      code: "NOT_FOUND",
    },
  ];

  for (const refusal of refusals) {
    it(`refuses ${refusal.name} without inviting the body, and closes`, async () => {
      const connection = await rawConnection(service.baseUrl);
      connection.socket.write(
        head(refusal.target, { "Content-Type": "application/json", ...refusal.headers() }),
      );
      const raw = await connection.closed();
      expect(raw).not.toContain("100 Continue");
      const answer = parseAnswer(raw);
      expect(answer.statusLine).toBe(`HTTP/1.1 ${refusal.status}`);
      expect(answer.headers.connection).toBe("close");
      expect(JSON.parse(answer.body)).toMatchObject({ code: refusal.code });
    });
  }

  it("invites the body of a request it accepts, serves it and keeps the connection", async () => {
    const body = JSON.stringify({ kind: "chore" });
    const connection = await rawConnection(service.baseUrl);
    connection.socket.write(
      head("/v1/validate/work-item.v1", {
        "Content-Type": "application/json",
        "Content-Length": String(body.length),
      }),
    );
    expect(await connection.waitFor(/\r\n\r\n/)).toBe("HTTP/1.1 100 Continue\r\n\r\n");
    connection.socket.write(body);
    const raw = await connection.waitFor(/\r\n\r\n[\s\S]*\}$/);
    const answer = parseAnswer(raw.slice("HTTP/1.1 100 Continue\r\n\r\n".length));
    expect(answer.statusLine).toBe("HTTP/1.1 200 OK");
    expect(answer.headers.connection).toBe("keep-alive");
    expect(JSON.parse(answer.body)).toMatchObject({ valid: false });
    connection.socket.destroy();
  });
});
