// A flood of made-up bearer tokens from one address: limited by the address, and no token that
// fails to authenticate becomes a key of the rate limit (which would grow its table by the
// tokens' length — 25 000 tokens of 8 KB once took the service from 138 to 410 MB).
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { memoryRateLimiter, type RateLimitKeys } from "../../src/http/rate-limit.ts";
import { openNodeDatabase } from "../../src/node-sqlite.ts";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { manualClock, type Service } from "../contract/harness.ts";
import { overSocket } from "./services.ts";

/** A distinct, well-formed, 8 KB token that authenticates as nobody. */
const madeUpToken = () => randomBytes(6144).toString("base64url");

describe("a flood of made-up tokens from one address", () => {
  let service: Service;
  beforeAll(async () => {
    service = await overSocket({ rateLimit: { requests: 5, windowMs: 60_000 } });
  });
  afterAll(() => service.stop());

  it("is limited by the address: 401 until its limit, then 429, for the admin's token too", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 12; index++) {
      const answer = await fetch(`${service.baseUrl}/v1/runs/run_00000000000000000000000000`, {
        headers: { Authorization: `Bearer ${madeUpToken()}` },
      });
      statuses.push(answer.status);
      await answer.body?.cancel();
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    const admin = { Authorization: `Bearer ${service.adminToken}` };
    const refused = await fetch(`${service.baseUrl}/healthz`, { headers: admin });
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([429, "60"]);
    await service.advance(60_000);
    expect((await fetch(`${service.baseUrl}/healthz`, { headers: admin })).status).toBe(200);
  });
});

describe("what the rate limit is asked to count", () => {
  it("an address for every request; a token only once it authenticates, by its SHA-256", async () => {
    const adminToken = "rate-limit-admin-token-0123456789";
    const counted: RateLimitKeys[] = [];
    const database = openNodeDatabase(":memory:");
    const store = new SqlStore(database);
    const app = createApp({
      store,
      auth: { adminToken },
      limits: { rateLimit: { requests: 100, windowMs: 60_000 } },
      clock: manualClock().now,
      clientAddress: () => "192.0.2.1",
      rateLimiter: (limit, clock) => {
        const limited = memoryRateLimiter(limit, clock);
        return (keys) => {
          counted.push(keys);
          return limited(keys);
        };
      },
    });
    const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
    const madeUp = madeUpToken();
    const agentShaped = `tc_run_${"0".repeat(26)}_agt_${"0".repeat(26)}_${"x".repeat(43)}`;
    expect(
      (await app.request("/v1/runs/run_00000000000000000000000000", bearer(madeUp))).status,
    ).toBe(401);
    expect((await app.request("/healthz", bearer(agentShaped))).status).toBe(200);
    expect((await app.request("/healthz")).status).toBe(200);
    expect((await app.request("/healthz", bearer(adminToken))).status).toBe(200);
    const address = { token: undefined, address: "192.0.2.1" };
    expect(counted).toEqual([
      address,
      address,
      address,
      address,
      {
        token: {
          sha256: createHash("sha256").update(adminToken).digest("hex"),
          caller: { role: "admin" },
        },
        address: undefined,
      },
    ]);
    store.close();
    database.close();
  });
});
