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
export const continueRequestTrace: MiddlewareHandler = (c, next) => {
  const carrier = traceHeaders(c.req.raw.headers);
  // Without a `traceparent` there is no trace to continue: the active context stays as it is.
  return carrier.traceparent === undefined ? next() : withTraceContext(carrier, next);
};

/**
 * The trace context a request names in its `traceparent` and `tracestate` headers, as the
 * registered propagator reads it (tracestate normalised, invalid entries dropped): what a run
 * stores for its work items' `trace_context`. Undefined without a valid `traceparent`, or when
 * the service has no OpenTelemetry SDK (nothing is stored then).
 */
export function requestTraceContext(request: Request): TraceContext | undefined {
  return readTraceContext(traceHeaders(request.headers));
}
