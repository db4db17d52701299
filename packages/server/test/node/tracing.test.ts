import { context, propagation, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { createServiceClient } from "@task-context/client";
import { recordSpans, type SpanRecord, type SpanRecorder } from "@task-context/trace-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { artifactCompletion, createRun, runInput, taskStage } from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";
import { call, mcpClient } from "../contract/mcp.contract.ts";
import { inProcess } from "./services.ts";

let service: Service;
let recorder: SpanRecorder;
beforeEach(async () => {
  service = await inProcess();
  recorder = recordSpans();
});
afterEach(async () => {
  await recorder.stop();
  await service.stop();
});

/** A run of one task stage with one item, and its agent `writer`. */
async function runWithWriter() {
  const fixture = await createRun(service, runInput([taskStage("draft")], { max_attempts: 2 }));
  return { runId: fixture.run.run_id, writer: await fixture.agent("writer") };
}

/** The service's own spans. */
const workItemSpans = (): SpanRecord[] =>
  recorder.records().filter((record) => record.scope === "@task-context/server");

describe("the delivery service with an OpenTelemetry SDK registered", () => {
  it("records a span for each claim and completion over HTTP, and an empty claim", async () => {
    const { runId, writer } = await runWithWriter();
    const claimed = await writer.claimNext();
    const item = (claimed.body as { work_item: { id: string; context_sha256: string } }).work_item;
    await writer.complete(item.id, artifactCompletion(1));
    await writer.claimNext();

    const common = {
      "task_context.run.id": runId,
      "gen_ai.agent.id": writer.agentId,
      "task_context.recipient.kind": "work-item",
    };
    const span = (name: string, attributes: Record<string, unknown>) => ({
      name,
      scope: "@task-context/server",
      kind: "internal",
      parent: null,
      status: { code: "unset" },
      attributes: { ...common, ...attributes },
      exceptions: [],
    });
    const settled = (status: string) => ({
      "task_context.recipient.id": item.id,
      "task_context.work_item.attempt": 1,
      "task_context.work_item.status": status,
      "task_context.outcome": "success",
    });
    expect(workItemSpans()).toStrictEqual([
      // The claim delivered the run context: its hash is the item's receipt.
      span("claim work_item", {
        ...settled("claimed"),
        "task_context.context.sha256": item.context_sha256,
      }),
      span("complete work_item", settled("completed")),
      span("claim work_item", { "task_context.outcome": "empty" }),
    ]);
  });

  it("records a failed attempt, and a refused completion with the error's code", async () => {
    const { writer } = await runWithWriter();
    const claimed = await writer.claimNext();
    const item = (claimed.body as { work_item: { id: string } }).work_item;
    await writer.fail(item.id, { attempt: 1, reason: "The draft tool crashed." });
    const refused = await writer.complete(item.id, artifactCompletion(1));

    const [, failed, completion] = workItemSpans();
    expect(failed?.name).toBe("fail work_item");
    expect(failed?.attributes).toMatchObject({
      "task_context.recipient.id": item.id,
      "task_context.work_item.status": "offered",
      "task_context.outcome": "success",
    });
    const { code, error } = refused.body as unknown as { code: string; error: string };
    expect(completion).toMatchObject({
      name: "complete work_item",
      status: { code: "error", message: error },
      attributes: { "error.type": code, "task_context.outcome": "error" },
      exceptions: [error],
    });
  });

  it("records the receipt a completion quotes back, and whether it was stale", async () => {
    const { writer } = await runWithWriter();
    const claimed = await writer.claimNext();
    const item = (claimed.body as { work_item: { id: string; context_sha256: string } }).work_item;
    const stale = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";
    const answer = await writer.complete(item.id, {
      ...artifactCompletion(1),
      context_sha256: stale,
    });

    expect(answer.body).toMatchObject({ status: "completed", warning: expect.any(String) });
    const [, completion] = workItemSpans();
    expect(completion?.attributes).toMatchObject({
      "task_context.context.quoted_sha256": stale,
      "task_context.context.stale": true,
      "task_context.outcome": "success",
    });
  });

  it("records the same receipt for a completion given again for its Idempotency-Key", async () => {
    const { writer } = await runWithWriter();
    const claimed = await writer.claimNext();
    const item = (claimed.body as { work_item: { id: string } }).work_item;
    const stale = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";
    const body = { ...artifactCompletion(1), context_sha256: stale };
    const first = await writer.complete(item.id, body, "receipt-again");
    const again = await writer.complete(item.id, body, "receipt-again");

    expect(again.text).toBe(first.text);
    const completions = workItemSpans().filter((span) => span.name === "complete work_item");
    expect(completions.map(({ attributes }) => attributes)).toStrictEqual([
      completions[0]?.attributes,
      completions[0]?.attributes,
    ]);
    expect(completions[0]?.attributes).toMatchObject({
      "task_context.context.quoted_sha256": stale,
      "task_context.context.stale": true,
    });
  });

  it("records the claims and completions of the /mcp tools through the same place", async () => {
    const { writer } = await runWithWriter();
    const client = await mcpClient(service, writer.token);
    const claimed = await call(client, "claim_work_item", {});
    const item = claimed.structured.work_item as { id: string };
    await call(client, "complete_work_item", {
      work_item_id: item.id,
      ...artifactCompletion(1),
      context_sha256: (item as { context_sha256?: string }).context_sha256,
    });
    await client.close();

    expect(
      workItemSpans().map(({ name, attributes }) => ({
        name,
        id: attributes["task_context.recipient.id"],
        stale: attributes["task_context.context.stale"],
        outcome: attributes["task_context.outcome"],
      })),
    ).toStrictEqual([
      { name: "claim work_item", id: item.id, stale: undefined, outcome: "success" },
      { name: "complete work_item", id: item.id, stale: false, outcome: "success" },
    ]);
  });
});

describe("the delivery service continues the trace of its callers", () => {
  const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  const CALLER_SPAN_ID = "00f067aa0ba902b7";
  const traceparent = `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`;

  /** Each span of the service: its name, whether it is in the caller's trace, its parent's id. */
  const lineage = () =>
    recorder
      .finished()
      .filter((span) => span.instrumentationScope.name === "@task-context/server")
      .map((span) => ({
        name: span.name,
        inTrace: span.spanContext().traceId === TRACE_ID,
        parent: span.parentSpanContext?.spanId ?? null,
      }));

  it("a claim and a completion with a traceparent header are children of the caller's span", async () => {
    const { writer } = await runWithWriter();
    const claimed = await writer.post<{ work_item: { id: string } }>("/v1/inbox/claim-next", {
      headers: { traceparent },
    });
    await writer.post(`/v1/work-items/${claimed.body.work_item.id}/complete`, {
      body: artifactCompletion(1),
      headers: { traceparent, "Idempotency-Key": "k-1" },
    });

    expect(lineage()).toStrictEqual([
      { name: "claim work_item", inTrace: true, parent: CALLER_SPAN_ID },
      { name: "complete work_item", inTrace: true, parent: CALLER_SPAN_ID },
    ]);
  });

  it("the /mcp tools continue the trace a call's _meta names", async () => {
    const { writer } = await runWithWriter();
    const client = await mcpClient(service, writer.token);
    const claimed = await client.callTool({
      name: "claim_work_item",
      arguments: {},
      _meta: { traceparent },
    });
    const item = (claimed.structuredContent as { work_item: { id: string } }).work_item;
    await client.callTool({
      name: "complete_work_item",
      arguments: { work_item_id: item.id, ...artifactCompletion(1) },
    });
    await client.close();

    expect(lineage()).toStrictEqual([
      { name: "claim work_item", inTrace: true, parent: CALLER_SPAN_ID },
      { name: "complete work_item", inTrace: false, parent: null },
    ]);
  });

  it("the typed client sends the active span as traceparent; the run's items carry it", async () => {
    const admin = createServiceClient({
      url: "http://service.test",
      token: service.adminToken,
      fetch: (input, init) => service.fetch(String(input), init),
    });
    const tracer = trace.getTracer("test");
    const { runId, runSpan } = await tracer.startActiveSpan("main agent", async (span) => {
      const run = await admin.createRun(runInput([taskStage("draft")]));
      span.end();
      return { runId: run.run_id, runSpan: span.spanContext() };
    });
    const { token } = await admin.addAgent(runId, { tag: "writer" });
    const writer = createServiceClient({
      url: "http://service.test",
      token,
      fetch: (input, init) => service.fetch(String(input), init),
    });
    const {
      offers: [offer],
    } = await writer.poll();
    expect(offer?.trace_context).toStrictEqual({
      traceparent: `00-${runSpan.traceId}-${runSpan.spanId}-01`,
    });
    // An agent that continues the run's trace from its item: its claim joins it.
    const continued = propagation.extract(ROOT_CONTEXT, offer?.trace_context);
    const agentSpan = await context.with(continued, () =>
      tracer.startActiveSpan("agent", async (span) => {
        await writer.claim(offer?.id ?? "");
        span.end();
        return span.spanContext();
      }),
    );

    expect(agentSpan.traceId).toBe(runSpan.traceId);
    expect(lineage()).toStrictEqual([
      { name: "claim work_item", inTrace: false, parent: agentSpan.spanId },
    ]);
    const [claim] = recorder.finished().filter((span) => span.name === "claim work_item");
    expect(claim?.spanContext().traceId).toBe(runSpan.traceId);
  });
});

describe("the delivery service without an OpenTelemetry SDK", () => {
  it("delivers and records nothing", async () => {
    await recorder.stop();
    const { writer } = await runWithWriter();
    const claimed = await writer.claimNext();

    expect(claimed.status).toBe(200);
    expect(recorder.finished()).toStrictEqual([]);
  });
});
