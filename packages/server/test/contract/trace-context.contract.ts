import { propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactCompletion, Client, reviewStage, runInput, taskStage } from "./client.ts";
import type { Service, StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/** Creates a run of a draft stage and its review with `headers`; 201 asserted. */
async function runWith(service: Service, headers: Record<string, string>) {
  const admin = new Client(service, service.adminToken);
  const created = await admin.post<{ run_id: string }>("/v1/runs", {
    body: runInput([taskStage("draft"), reviewStage("review", "draft", ["logic"])], {
      max_attempts: 1,
    }),
    headers,
  });
  expect(created.status, created.text).toBe(201);
  const runId = created.body.run_id;
  const agent = async (tag: string) => {
    const added = await admin.addAgent(runId, tag);
    expect(added.status, added.text).toBe(201);
    return new Client(service, added.body.token);
  };
  return { admin, runId, agent };
}

/**
 * A run keeps the W3C trace context it was created in (the `traceparent` and `tracestate`
 * headers of `POST /v1/runs`), and every work item of it carries it as `trace_context`, so the
 * agent that claims one can continue the run's trace. With the W3C propagator registered, as an
 * OpenTelemetry SDK registers it; without one, nothing is kept.
 */
export function traceContextSuite(start: StartService): void {
  describe("trace context, with an OpenTelemetry propagator", () => {
    const service = suiteService(start, { tracePropagator: "w3c" });
    beforeAll(() => {
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    });
    afterAll(() => {
      propagation.disable();
    });

    it("every work item of a run created with traceparent carries it, tracestate normalised", async () => {
      const { admin, runId, agent } = await runWith(service, {
        traceparent: TRACEPARENT,
        tracestate: "vendor=opaque , other=1",
      });
      const expected = { traceparent: TRACEPARENT, tracestate: "vendor=opaque,other=1" };
      const writer = await agent("writer");
      const [offered] = (await writer.poll()).body.offers;
      expect(offered?.trace_context).toStrictEqual(expected);
      const id = offered?.id ?? "";
      expect((await writer.claim(id)).body.work_item.trace_context).toStrictEqual(expected);
      // Dead-lettered (max_attempts 1), requeued, claimed again: the same trace everywhere.
      await writer.fail(id, { attempt: 1, reason: "crashed" });
      const letters = await admin.deadLetters(runId);
      expect(letters.body.dead_letters[0]?.work_item.trace_context).toStrictEqual(expected);
      expect((await admin.requeue(runId, id)).body.work_item.trace_context).toStrictEqual(expected);
      const again = await writer.claimNext();
      expect(again.body.work_item.trace_context).toStrictEqual(expected);
      await writer.complete(id, artifactCompletion(2));
      // The next stage's items carry it too.
      const critic = await agent("critic");
      const review = await critic.claimNext();
      expect(review.body.work_item.kind).toBe("review");
      expect(review.body.work_item.trace_context).toStrictEqual(expected);
    });

    it("a run created without a valid traceparent gives its items none", async () => {
      for (const headers of [{}, { traceparent: "00-nothing-01" }, { tracestate: "vendor=x" }]) {
        const { agent } = await runWith(service, headers);
        const [offered] = (await (await agent("writer")).poll()).body.offers;
        expect(offered).toBeDefined();
        expect(offered).not.toHaveProperty("trace_context");
      }
    });

    it("a traceparent on an agent's request changes nothing the agent receives", async () => {
      const { agent } = await runWith(service, {});
      const writer = await agent("writer");
      const claimed = await writer.post<{ work_item: object }>("/v1/inbox/claim-next", {
        headers: { traceparent: TRACEPARENT },
      });
      expect(claimed.status).toBe(200);
      expect(claimed.body.work_item).not.toHaveProperty("trace_context");
    });
  });

  describe("trace context, without an OpenTelemetry SDK", () => {
    const service = suiteService(start);

    it("a run created with traceparent keeps none: its items carry no trace_context", async () => {
      const { agent } = await runWith(service, { traceparent: TRACEPARENT });
      const [offered] = (await (await agent("writer")).poll()).body.offers;
      expect(offered).toBeDefined();
      expect(offered).not.toHaveProperty("trace_context");
    });
  });
}
