import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createRouter } from "../../src/workers/router.ts";
import worker from "../../src/workers.ts";
import { runInput, taskStage } from "../contract/client.ts";

const adminToken = env.TASK_CONTEXT_ADMIN_TOKEN ?? "";
const admin = { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" };

describe("src/workers.ts", () => {
  it("serves the app with the admin token of TASK_CONTEXT_ADMIN_TOKEN", async () => {
    // wrangler.jsonc's bindings: the run objects and the address limiter.
    expect(typeof env.RUNS.idFromName).toBe("function");
    expect(typeof env.ADDRESS_RATE_LIMITER?.limit).toBe("function");
    const health = await exports.default.fetch("http://edge.test/healthz");
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
    expect(health.headers.get("x-content-type-options")).toBe("nosniff");
    const created = await exports.default.fetch("http://edge.test/v1/runs", {
      method: "POST",
      headers: admin,
      body: JSON.stringify(runInput([taskStage("draft")])),
    });
    expect(created.status).toBe(201);
    const { run_id } = (await created.json()) as { run_id: string };
    const read = await exports.default.fetch(`http://edge.test/v1/runs/${run_id}`, {
      headers: admin,
    });
    expect(await read.json()).toMatchObject({ run_id, status: "active" });
    const wrong = await exports.default.fetch(`http://edge.test/v1/runs/${run_id}`, {
      headers: { Authorization: "Bearer not-the-admin" },
    });
    expect([wrong.status, await wrong.json()]).toEqual([
      401,
      { error: expect.any(String), code: "UNAUTHORIZED" },
    ]);
  });

  it("answers 503 JSON, and logs why, while its variables are wrong", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const ctx = createExecutionContext();
    const answers = [];
    for (const variables of [
      {},
      { TASK_CONTEXT_ADMIN_TOKEN: "x", TASK_CONTEXT_RATE_LIMIT: "fast" },
      { TASK_CONTEXT_ADMIN_TOKEN: "x", TASK_CONTEXT_CORS_ORIGINS: "https://app.example.com/" },
    ]) {
      const answer = await worker.fetch(
        new Request("http://edge.test/healthz"),
        { RUNS: env.RUNS, ...variables },
        ctx,
      );
      answers.push([answer.status, await answer.json()]);
    }
    expect(answers).toEqual([
      [
        503,
        {
          error:
            "The service is not configured: TASK_CONTEXT_ADMIN_TOKEN is missing or malformed. Its operator must set the Worker's variables (the Worker's logs say why).",
          code: "SERVICE_UNAVAILABLE",
        },
      ],
      [
        503,
        {
          error:
            "The service is not configured: TASK_CONTEXT_RATE_LIMIT is missing or malformed. Its operator must set the Worker's variables (the Worker's logs say why).",
          code: "SERVICE_UNAVAILABLE",
        },
      ],
      [
        503,
        {
          error:
            "The service is not configured: TASK_CONTEXT_CORS_ORIGINS is missing or malformed. Its operator must set the Worker's variables (the Worker's logs say why).",
          code: "SERVICE_UNAVAILABLE",
        },
      ],
    ]);
    expect(logged.mock.calls.map(([message, error]) => [message, String(error)])).toEqual([
      [
        "the Worker is not configured:",
        "ArgumentError: Invalid TASK_CONTEXT_ADMIN_TOKEN: expected a non-empty string, got undefined.",
      ],
      [
        "the Worker is not configured:",
        'ArgumentError: Invalid TASK_CONTEXT_RATE_LIMIT: expected <requests>/<seconds> with both at least 1 (e.g. 1200/60), or "off", got "fast".',
      ],
      [
        "the Worker is not configured:",
        'ArgumentError: Invalid TASK_CONTEXT_CORS_ORIGINS: expected comma-separated origins such as https://app.example.com (a scheme, a host and an optional port, no path or trailing slash), got "https://app.example.com/".',
      ],
    ]);
    logged.mockRestore();
  });

  it("createRouter names the variable that is wrong", () => {
    expect(() => createRouter({ RUNS: env.RUNS, TASK_CONTEXT_ADMIN_TOKEN: "" })).toThrow(
      /^Invalid TASK_CONTEXT_ADMIN_TOKEN/,
    );
  });
});
