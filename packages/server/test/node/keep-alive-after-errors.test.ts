// A pooled keep-alive client keeps working after every early error answer of the Node server,
// whatever the body it was sending: the answer either says `Connection: close` (and the client
// opens a new connection) or the server has read the rest of the body and the same connection
// serves the next request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Service } from "../contract/harness.ts";
import {
  type BodyShape,
  bodyShapes,
  type EarlyError,
  earlyErrorFixture,
  earlyErrors,
  oneConnectionAgent,
  type Seen,
  type Sent,
  sendWithAgent,
  sendWithFetch,
} from "./early-errors.ts";
import { overSocket } from "./services.ts";

const healthz: Sent = { method: "GET", path: "/healthz", headers: {}, bytes: 0 };

/**
 * What the answer may say of the connection: a body over the limit is not read and the
 * connection closed; one within the limit is drained and the connection kept when it arrives
 * within a second — which a busy machine (CI runs the suites in parallel on two cores) may not
 * manage even on loopback, and then the answer says close. Either way the next request works,
 * and `keptSome` checks that draining did keep connections.
 */
function expectedConnection(row: Pick<EarlyError, "status">): string[] {
  return row.status === 413 ? ["close"] : ["keep-alive", "close"];
}

/** Bodies sent at once within the limit are drained: at least one answer kept its connection. */
function keptSome(seen: readonly Seen[], shape: BodyShape) {
  if (shape === "slow") return;
  expect(seen.map((one) => one.connection.toLowerCase())).toContain("keep-alive");
}

function expectRefused(seen: Seen, row: Pick<EarlyError, "name" | "status" | "code">) {
  expect([row.name, seen.status, JSON.parse(seen.body).code]).toEqual([
    row.name,
    row.status,
    row.code,
  ]);
  expect(expectedConnection(row)).toContain(seen.connection.toLowerCase());
}

describe("the Node server after an early error answer", () => {
  let service: Service;
  let rows: EarlyError[];
  beforeAll(async () => {
    service = await overSocket();
    rows = earlyErrors(await earlyErrorFixture(service.baseUrl, service.adminToken));
  });
  afterAll(() => service.stop());

  for (const shape of bodyShapes) {
    it(`serves fetch's next request, body sent ${shape}`, async () => {
      const answers: Seen[] = [];
      for (const row of rows) {
        const seen = await sendWithFetch(service.baseUrl, row, shape);
        expectRefused(seen, row);
        answers.push(seen);
        const next = await sendWithFetch(service.baseUrl, healthz, "content-length");
        expect([row.name, next.status]).toEqual([row.name, 200]);
      }
      keptSome(answers, shape);
    });

    it(`serves a node:http Agent's next request on the same connection unless told to close, body sent ${shape}`, async () => {
      const answers = await Promise.all(
        rows.map(async (row) => {
          const agent = oneConnectionAgent();
          try {
            const seen = await sendWithAgent(agent, service.baseUrl, row, shape);
            expectRefused(seen, row);
            const next = await sendWithAgent(agent, service.baseUrl, healthz, "content-length");
            expect([row.name, next.status, next.reusedSocket]).toEqual([
              row.name,
              200,
              seen.connection.toLowerCase() !== "close",
            ]);
            return seen;
          } finally {
            agent.destroy();
          }
        }),
      );
      keptSome(answers, shape);
    });
  }
});

describe("the Node server after a 429", () => {
  let service: Service;
  beforeAll(async () => {
    service = await overSocket({ rateLimit: { requests: 1, windowMs: 60_000 } });
  });
  afterAll(() => service.stop());

  const limited: Sent = {
    method: "POST",
    path: "/v1/runs",
    headers: { "Content-Type": "application/json" },
    bytes: 600_000,
  };
  for (const shape of bodyShapes) {
    it(`serves the next request of fetch and of a node:http Agent, body sent ${shape}`, async () => {
      const agent = oneConnectionAgent();
      try {
        for (const send of [
          (request: Sent) => sendWithFetch(service.baseUrl, request, shape),
          (request: Sent) => sendWithAgent(agent, service.baseUrl, request, shape),
        ]) {
          await service.advance(60_000);
          expect((await send(healthz)).status).toBe(200);
          const seen = await send(limited);
          expectRefused(seen, { name: "rate limited", status: 429, code: "RATE_LIMITED" });
          await service.advance(60_000);
          const next = await send(healthz);
          expect(next.status).toBe(200);
          if (next.reusedSocket !== undefined) {
            expect(next.reusedSocket).toBe(seen.connection.toLowerCase() !== "close");
          }
        }
      } finally {
        agent.destroy();
      }
    });
  }
});

describe("an idle keep-alive connection", () => {
  it("is kept 65 s, so that its client (a few seconds less) closes it first", async () => {
    const service = await overSocket();
    try {
      const answer = await fetch(`${service.baseUrl}/healthz`);
      await answer.body?.cancel();
      expect([answer.status, answer.headers.get("keep-alive")]).toEqual([200, "timeout=65"]);
    } finally {
      await service.stop();
    }
  });
});
