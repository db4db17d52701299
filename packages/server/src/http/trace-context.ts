// The W3C trace context of a request (`traceparent`, `tracestate` headers): every request
// continues the trace it names, and a new run stores it for its work items.

import { readTraceContext, withTraceContext } from "@task-context/core/tracing";
import type { TraceContext } from "@task-context/protocols";
import type { MiddlewareHandler } from "hono";

/** The trace headers of a request, as a carrier (absent ones left out). */
function traceHeaders(headers: Headers): Record<string, string> {
  const carrier: Record<string, string> = {};
  for (const name of ["traceparent", "tracestate"]) {
    const value = headers.get(name);
    if (value !== null) carrier[name] = value;
  }
  return carrier;
}

/**
 * Runs the rest of the request in the trace its `traceparent` header names, so the spans of the
 * request (a claim's, a completion's) are children of the caller's. Without a valid header, or
 * without an OpenTelemetry SDK, the request runs as before.
 */
export const continueRequestTrace: MiddlewareHandler = (c, next) =>
  withTraceContext(traceHeaders(c.req.raw.headers), next);

/**
 * The trace context a request names in its `traceparent` and `tracestate` headers, as the
 * registered propagator reads it (tracestate normalised, invalid entries dropped): what a run
 * stores for its work items' `trace_context`. Undefined without a valid `traceparent`, or when
 * the service has no OpenTelemetry SDK (nothing is stored then).
 */
export function requestTraceContext(request: Request): TraceContext | undefined {
  return readTraceContext(traceHeaders(request.headers));
}

/** The trace headers as the OpenAPI document describes them, on the operations that read them. */
export const traceContextHeaders = [
  {
    name: "traceparent",
    in: "header",
    required: false,
    description:
      "W3C trace context: the caller's span. The request's spans continue its trace (when the service has an OpenTelemetry SDK); on POST /v1/runs it is stored with the run, and every work item of the run carries it as trace_context.",
    schema: { type: "string", pattern: "^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$" },
    example: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  },
  {
    name: "tracestate",
    in: "header",
    required: false,
    description: "W3C trace context: vendors' entries that come with traceparent.",
    schema: { type: "string" },
    example: "vendor=opaque",
  },
] as const;
