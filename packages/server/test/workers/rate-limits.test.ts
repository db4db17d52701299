import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/delivery/ids.ts";
import { createRouter } from "../../src/workers/router.ts";
import { Client, createRun, runInput, taskStage } from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";
import { adminToken, workersService } from "./services.ts";

const limit = { requests: 3, windowMs: 10_000 };

/** A second router (as another isolate would run) over the same objects as `service`. */
function sameRunsOtherRouter(service: Service): Service {
  const other = createRouter(
    { RUNS: env.RUNS, TASK_CONTEXT_ADMIN_TOKEN: adminToken },
    { limits: { rateLimit: limit } },
  );
  return { ...service, fetch: async (url, init) => other.request(url, init) };
}

/** Every request from another address, so that only the token's limit counts. */
let address = 0;
const fromAnywhere = () => ({ "CF-Connecting-IP": `198.51.100.${(address++ % 250) + 1}` });

describe("rate limits on Workers", () => {
  it("an agent token is counted in its run's object: exactly, across routers", async () => {
    const service = await workersService({ rateLimit: limit });
    // Three admin requests: the admin token's and this address's limit, not the agents'.
    const { agent } = await createRun(service, runInput([taskStage("draft")]));
    const worker = await agent("worker");
    const other = await agent("other");
    const elsewhere = new Client(sameRunsOtherRouter(service), worker.token);
    const statuses = [
      (await worker.get("/v1/inbox/poll", { headers: fromAnywhere() })).status,
      (await elsewhere.get("/v1/inbox/poll", { headers: fromAnywhere() })).status,
      (await worker.get("/v1/inbox/poll", { headers: fromAnywhere() })).status,
    ];
    const refused = await elsewhere.get("/v1/inbox/poll", { headers: fromAnywhere() });
    expect([...statuses, refused.status]).toEqual([200, 200, 200, 429]);
    expect(refused.error?.code).toBe("RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("10");
    // Another agent of the run has its own count; the window ends on the object's clock.
    expect((await other.get("/v1/inbox/poll", { headers: fromAnywhere() })).status).toBe(200);
    await service.advance(10_000);
    expect((await worker.get("/v1/inbox/poll", { headers: fromAnywhere() })).status).toBe(200);
  });

  it("an address is counted by the Rate Limiting binding, across routers", async () => {
    const binding = env.TEST_ADDRESS_RATE_LIMITER;
    const router = (limits = {}) =>
      createRouter(
        { RUNS: env.RUNS, TASK_CONTEXT_ADMIN_TOKEN: adminToken, ADDRESS_RATE_LIMITER: binding },
        { limits },
      );
    const [first, second] = [router(), router()];
    const address = { "CF-Connecting-IP": "2001:db8:5:6:7:8:9:a" };
    const sameNetwork = { "CF-Connecting-IP": "2001:db8:5:6::1" };
    const statuses = [
      (await first.request("/healthz", { headers: address })).status,
      (await second.request("/healthz", { headers: sameNetwork })).status,
      (await first.request("/healthz", { headers: address })).status,
    ];
    const refused = await second.request("/healthz", { headers: address });
    expect([...statuses, refused.status]).toEqual([200, 200, 200, 429]);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await refused.json()).toMatchObject({ code: "RATE_LIMITED" });
    const other = await first.request("/healthz", { headers: { "CF-Connecting-IP": "192.0.2.7" } });
    expect(other.status).toBe(200);
  });

  it("TASK_CONTEXT_RATE_LIMIT sets the limit; off turns it off", async () => {
    const runId = newId("run");
    const limited = createRouter({
      RUNS: env.RUNS,
      TASK_CONTEXT_ADMIN_TOKEN: adminToken,
      TASK_CONTEXT_RATE_LIMIT: "1/60",
    });
    const headers = { Authorization: `Bearer ${adminToken}`, ...fromAnywhere() };
    expect((await limited.request(`/v1/runs/${runId}`, { headers })).status).toBe(404);
    const refused = await limited.request(`/v1/runs/${runId}`, { headers });
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([429, "60"]);
    const free = createRouter({
      RUNS: env.RUNS,
      TASK_CONTEXT_ADMIN_TOKEN: adminToken,
      TASK_CONTEXT_RATE_LIMIT: "off",
    });
    for (let index = 0; index < 3; index++) {
      expect((await free.request(`/v1/runs/${runId}`, { headers })).status).toBe(404);
    }
  });
});
