// Conformance of @task-context/core's built tracing entry (the W3C trace context carriers) on
// Node 20, Node 24, Bun, Deno and workerd: the same traceparent in and out on every runtime.
import { propagation, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  contextFromEnvironment,
  extractTraceContext,
  injectTraceContext,
  traceEnvironment,
  withTraceContext,
} from "@task-context/core/tracing";
import { describe, expect, it } from "vitest";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/** Runs `test` with the W3C propagator registered, as an SDK registers it, and unregisters it. */
function withPropagator(test: () => void): void {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  try {
    test();
  } finally {
    propagation.disable();
  }
}

describe("@task-context/core/tracing", () => {
  it("carries traceparent and tracestate through headers and environment variables", () => {
    withPropagator(() => {
      const continued = extractTraceContext(
        { traceparent: TRACEPARENT, tracestate: "vendor=opaque", baggage: "user=alice" },
        ROOT_CONTEXT,
      );
      expect(trace.getSpanContext(continued)?.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
      const headers: Record<string, string> = {};
      injectTraceContext(headers, continued);
      expect(headers).toStrictEqual({ traceparent: TRACEPARENT, tracestate: "vendor=opaque" });
      const environment = traceEnvironment(continued);
      expect(environment).toStrictEqual({ TRACEPARENT, TRACESTATE: "vendor=opaque" });
      const child: Record<string, string> = {};
      injectTraceContext(child, contextFromEnvironment(environment, ROOT_CONTEXT));
      expect(child).toStrictEqual(headers);
      expect(withTraceContext({ traceparent: TRACEPARENT }, () => "ran")).toBe("ran");
    });
  });

  it("ignores a traceparent that is not valid", () => {
    withPropagator(() => {
      expect(extractTraceContext({ traceparent: "00-0-0-01" }, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
      expect(contextFromEnvironment({ TRACEPARENT: "x" }, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
    });
  });

  it("without an SDK (no propagator) writes nothing", () => {
    const continued = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
    });
    const headers: Record<string, string> = {};
    injectTraceContext(headers, continued);
    expect(headers).toStrictEqual({});
    expect(traceEnvironment(continued)).toStrictEqual({});
  });
});
