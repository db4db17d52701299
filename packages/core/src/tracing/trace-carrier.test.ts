import { context, ROOT_CONTEXT, TraceFlags, trace } from "@opentelemetry/api";
import {
  contextFromEnvironment,
  extractTraceContext,
  injectTraceContext,
  readTraceContext,
  traceEnvironment,
  withTraceContext,
} from "@task-context/core/tracing";
import { recordSpans, type SpanRecorder } from "@task-context/trace-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN_ID = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

/** The context of a remote span (another process's), as a propagator would extract it. */
const remote = () =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });

describe("the W3C trace context carriers with an SDK registered", () => {
  let recorder: SpanRecorder;
  beforeEach(() => {
    recorder = recordSpans();
  });
  afterEach(async () => {
    await recorder.stop();
  });

  it("injects the active span's traceparent and tracestate, and nothing else", async () => {
    const carrier: Record<string, string> = { authorization: "Bearer x" };
    const extracted = extractTraceContext({
      traceparent: TRACEPARENT,
      tracestate: "vendor=opaque",
      baggage: "user=alice",
    });
    await context.with(extracted, () =>
      trace.getTracer("test").startActiveSpan("hop", (span) => {
        injectTraceContext(carrier);
        span.end();
        expect(carrier).toStrictEqual({
          authorization: "Bearer x",
          traceparent: `00-${TRACE_ID}-${span.spanContext().spanId}-01`,
          tracestate: "vendor=opaque",
        });
      }),
    );
  });

  it("continues the trace a carrier names: the spans started within are its children", async () => {
    const span = withTraceContext({ traceparent: TRACEPARENT }, () =>
      trace.getTracer("test").startSpan("continued"),
    );
    span.end();
    const [finished] = recorder.finished();
    expect(finished?.spanContext().traceId).toBe(TRACE_ID);
    expect(finished?.parentSpanContext).toMatchObject({ spanId: SPAN_ID, isRemote: true });
  });

  it("round-trips through the environment-variable carrier, with upper-case names", () => {
    const environment = traceEnvironment(
      extractTraceContext({ traceparent: TRACEPARENT, tracestate: "a=1,b=2" }),
    );
    expect(environment).toStrictEqual({ TRACEPARENT, TRACESTATE: "a=1,b=2" });
    const child = trace.getSpanContext(contextFromEnvironment({ ...environment, PATH: "/bin" }));
    expect(child).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID, isRemote: true });
    expect(child?.traceState?.serialize()).toBe("a=1,b=2");
    // Lower-case names are not the environment carrier's.
    expect(trace.getSpanContext(contextFromEnvironment({ traceparent: TRACEPARENT }))).toBe(
      undefined,
    );
  });

  it("writes no tracestate when there is none, or none valid", () => {
    expect(traceEnvironment(remote())).toStrictEqual({ TRACEPARENT });
    const invalidState = extractTraceContext({
      traceparent: TRACEPARENT,
      tracestate: "no equals sign",
    });
    expect(traceEnvironment(invalidState)).toStrictEqual({ TRACEPARENT });
    const carrier: Record<string, string> = {};
    injectTraceContext(carrier, remote());
    expect(carrier).toStrictEqual({ traceparent: TRACEPARENT });
  });

  it("ignores carriers without a valid traceparent, and values that are not strings", () => {
    for (const carrier of [
      undefined,
      {},
      { traceparent: "00-not-a-trace-01" },
      { traceparent: `00-${"0".repeat(32)}-${SPAN_ID}-01` },
      { traceparent: [TRACEPARENT] },
      { traceparent: { toString: () => TRACEPARENT } },
    ]) {
      expect(extractTraceContext(carrier, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
    }
    expect(contextFromEnvironment({ TRACEPARENT: "garbage" }, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
  });

  it("reads a carrier's trace context as the propagator writes it back, or none", () => {
    expect(readTraceContext({ traceparent: TRACEPARENT, tracestate: "a=1 , b=2" })).toStrictEqual({
      traceparent: TRACEPARENT,
      tracestate: "a=1,b=2",
    });
    expect(readTraceContext({ traceparent: ` ${TRACEPARENT}` })).toStrictEqual({
      traceparent: TRACEPARENT,
    });
    // Not the active span's: only what the carrier names.
    trace.getTracer("test").startActiveSpan("active", (span) => {
      expect(readTraceContext({ traceparent: "garbage" })).toBe(undefined);
      expect(readTraceContext(undefined)).toBe(undefined);
      span.end();
    });
  });

  it("writes nothing outside a span", () => {
    const carrier: Record<string, string> = {};
    injectTraceContext(carrier, ROOT_CONTEXT);
    expect(carrier).toStrictEqual({});
    expect(traceEnvironment(ROOT_CONTEXT)).toStrictEqual({});
  });
});

describe("the W3C trace context carriers without an SDK", () => {
  it("write nothing and continue nothing: no propagator is registered", () => {
    const carrier: Record<string, string> = {};
    injectTraceContext(carrier, remote());
    expect(carrier).toStrictEqual({});
    expect(traceEnvironment(remote())).toStrictEqual({});
    expect(extractTraceContext({ traceparent: TRACEPARENT }, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
    expect(contextFromEnvironment({ TRACEPARENT }, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
    expect(withTraceContext({ traceparent: TRACEPARENT }, () => "ran")).toBe("ran");
    expect(readTraceContext({ traceparent: TRACEPARENT })).toBe(undefined);
  });
});
