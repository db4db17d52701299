import * as z from "zod/mini";

/**
 * The W3C trace context (https://www.w3.org/TR/trace-context/) a work item carries from its run:
 * `traceparent` names the trace and the span that created the run, `tracestate` the vendors'
 * entries. An agent continues the trace with its OpenTelemetry propagator (it extracts these two
 * fields as it would the headers of the same names), so its spans join the run's trace. Present
 * only when the run was created with a `traceparent` header and the service traces.
 */
export const traceContextSchema = z
  .strictObject({
    traceparent: z
      .string()
      .check(
        z.regex(
          /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/,
          "must be a W3C traceparent: version-trace_id-parent_id-trace_flags in lower-case hexadecimal",
        ),
        z.describe("The W3C traceparent of the span that created the run"),
      ),
    tracestate: z.optional(
      z
        .string()
        .check(
          z.regex(
            /^[\x20-\x7e]{1,512}$/,
            "must be a W3C tracestate: 1 to 512 printable ASCII characters",
          ),
          z.describe("The W3C tracestate that came with it: vendors' entries"),
        ),
    ),
  })
  .check(z.meta({ title: "Trace context" }));

/** A W3C trace context: `traceparent` and, when there is one, `tracestate`. */
export type TraceContext = z.infer<typeof traceContextSchema>;
