import { describe, expect, it } from "vitest";
import { artifactCompletion, Client, createRun, runInput, taskStage } from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

/** Tokens, scopes and limits: each rule of "Security and limits". */
export function securitySuite(start: StartService): void {
  describe("security and limits", () => {
    const service = suiteService(start);

    it("no token gets 401 JSON with WWW-Authenticate", async () => {
      const { run } = await createRun(service, runInput([taskStage("draft")]));
      const anonymous = new Client(service, undefined);
      for (const answer of [
        await anonymous.getRun(run.run_id),
        await anonymous.poll(),
        await anonymous.createRun(runInput([taskStage("draft")])),
      ]) {
        expect(answer.status).toBe(401);
        expect(answer.error?.code).toBe("UNAUTHORIZED");
        expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
      }
    });

    it("a wrong token, or a forged agent token, gets 401", async () => {
      const { run, agent } = await createRun(service, runInput([taskStage("draft")]));
      const real = await agent("worker");
      const forged = `${real.token?.slice(0, -4)}AAAA`;
      for (const token of ["wrong", forged, `${service.adminToken}x`, "tc_run_x_agt_y_z"]) {
        const answer = await new Client(service, token).getRun(run.run_id);
        expect(answer.status).toBe(401);
      }
    });

    it("an agent token of another run gets 404 on every resource of this run", async () => {
      const mine = await createRun(service, runInput([taskStage("draft")]));
      const theirs = await createRun(service, runInput([taskStage("draft")]));
      const owner = await mine.agent("owner");
      const claimed = await owner.claimNext();
      const done = await owner.complete(claimed.body.work_item.id, artifactCompletion(1));
      const stranger = await theirs.agent("stranger");
      const runId = mine.run.run_id;
      const answers = [
        await stranger.getRun(runId),
        await stranger.events(runId),
        await stranger.artifact(runId, done.body.artifact_id ?? ""),
        await stranger.deadLetters(runId),
        await stranger.requeue(runId, claimed.body.work_item.id),
        await stranger.addAgent(runId, "intruder"),
        await stranger.claim(claimed.body.work_item.id),
        await stranger.heartbeat(claimed.body.work_item.id, 1),
        await stranger.complete(claimed.body.work_item.id, artifactCompletion(1)),
        await stranger.fail(claimed.body.work_item.id, { attempt: 1, reason: "x" }),
      ];
      for (const answer of answers)
        expect([answer.status, answer.text]).toEqual([404, expect.any(String)]);
      // The same answer as for a run that does not exist.
      const missing = await stranger.getRun("run_00000000000000000000000000");
      expect(answers[0]?.error).toEqual({
        ...missing.error,
        error: missing.error?.error.replace("run_00000000000000000000000000", runId),
      });
    });

    it("an agent token cannot use the admin endpoints (403)", async () => {
      const { run, agent } = await createRun(service, runInput([taskStage("draft")]));
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      for (const answer of [
        await worker.createRun(runInput([taskStage("draft")])),
        await worker.addAgent(run.run_id, "friend"),
        await worker.deadLetters(run.run_id),
        await worker.requeue(run.run_id, claimed.body.work_item.id),
      ]) {
        expect(answer.status).toBe(403);
        expect(answer.error?.code).toBe("FORBIDDEN");
      }
    });

    it("the admin token does not act as an agent (403)", async () => {
      const { admin } = await createRun(service, runInput([taskStage("draft")]));
      expect((await admin.poll()).status).toBe(403);
      expect((await admin.claimNext()).status).toBe(403);
    });

    it("agent tokens name their run, are returned once and never shown again", async () => {
      const { run, admin, agent, events } = await createRun(
        service,
        runInput([taskStage("draft")]),
      );
      const worker = await agent("worker");
      expect(worker.token).toMatch(
        new RegExp(`^tc_${run.run_id}_${worker.agentId}_[A-Za-z0-9_-]{43}$`),
      );
      const shown = JSON.stringify([(await admin.getRun(run.run_id)).body, await events()]);
      expect(shown).not.toContain(worker.token?.slice(-43));
    });

    it("a tag already in the run gets 409 AGENT_TAG_TAKEN", async () => {
      const { run, admin, agent } = await createRun(service, runInput([taskStage("draft")]));
      await agent("worker");
      const again = await admin.addAgent(run.run_id, "worker");
      expect(again.status).toBe(409);
      expect(again.error?.code).toBe("AGENT_TAG_TAKEN");
    });

    it("unknown fields get 400 with the field's JSON Pointer", async () => {
      const { admin, agent } = await createRun(service, runInput([taskStage("draft")]));
      const refused = await admin.createRun({
        ...runInput([taskStage("draft")]),
        extra: true,
      } as never);
      expect(refused.status).toBe(400);
      expect(refused.error).toMatchObject({
        code: "INVALID_REQUEST",
        issues: [{ path: "/extra", message: expect.stringContaining('Unknown field "extra"') }],
      });
      const nested = await admin.createRun(
        runInput([{ ...taskStage("draft"), stageDescription: "x" } as never]),
      );
      expect(nested.error?.issues?.map((issue) => issue.path)).toEqual([
        "/stages/0/stageDescription",
      ]);
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      const body = artifactCompletion(1);
      const inner = await worker.complete(claimed.body.work_item.id, {
        ...body,
        artifact: { ...body.artifact, author: "me" },
      });
      expect(inner.error?.issues?.map((issue) => issue.path)).toEqual(["/artifact/author"]);
      const query = await worker.poll({ wait: 0, tiemout: 1 } as never);
      expect(query.error?.issues?.map((issue) => issue.path)).toEqual(["/tiemout"]);
    });

    it("secure headers on every answer, CORS off unless configured", async () => {
      const { run, admin } = await createRun(service, runInput([taskStage("draft")]));
      for (const answer of [
        await admin.getRun(run.run_id),
        await new Client(service, undefined).get("/healthz"),
        await new Client(service, undefined).get("/nowhere"),
      ]) {
        expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
        expect(answer.headers.get("x-frame-options")).toBe("SAMEORIGIN");
        expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
        expect(answer.headers.get("strict-transport-security")).toMatch(/max-age=/);
        expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
        expect(answer.headers.get("access-control-allow-origin")).toBeNull();
      }
      const preflight = await service.fetch(`${service.baseUrl}/v1/runs`, {
        method: "OPTIONS",
        headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "POST" },
      });
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    });
  });

  describe("limits", () => {
    const service = suiteService(start, {
      bodyBytes: 2048,
      rateLimit: { requests: 5, windowMs: 10_000 },
    });

    it("a body over the limit gets 413 before the handler runs", async () => {
      const admin = new Client(service, service.adminToken);
      const large = runInput([taskStage("draft")], { constraints: ["x".repeat(4096)] });
      const answer = await admin.createRun(large);
      expect(answer.status).toBe(413);
      expect(answer.error?.code).toBe("PAYLOAD_TOO_LARGE");
      const anonymous = await new Client(service, undefined).post("/v1/validate/work-item.v1", {
        body: { padding: "x".repeat(4096) },
      });
      expect(anonymous.status).toBe(413);
    });

    it("rate limit per token and per address: 429 with Retry-After, then allowed again", async () => {
      await service.advance(10_000);
      const admin = new Client(service, service.adminToken);
      for (let index = 0; index < 5; index++)
        expect((await admin.get("/healthz")).status).toBe(200);
      const limited = await admin.get("/healthz");
      expect(limited.status).toBe(429);
      expect(limited.error?.code).toBe("RATE_LIMITED");
      expect(limited.headers.get("retry-after")).toBe("10");
      // The same address without the token is over its limit too.
      expect((await new Client(service, undefined).get("/healthz")).status).toBe(429);
      await service.advance(10_000);
      expect((await admin.get("/healthz")).status).toBe(200);
    });
  });
}
