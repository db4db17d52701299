import type { Context, TextMapSetter } from "@opentelemetry/api";
import { openTelemetryApi } from "#open-telemetry-api";
import { activeContext } from "./active-context.ts";

/**
 * The W3C trace context fields a hop carries, by their header names: `traceparent` (the trace and
 * the span to continue) and `tracestate` (vendors' entries). Nothing else the registered
 * propagator may write (baggage, say) leaves through these functions: a hop carries where it sits
 * in a trace, never the application's baggage.
 */
const TRACE_FIELDS = ["traceparent", "tracestate"] as const;

/** A carrier as the propagator writes it: header names to values. */
export type TraceCarrier = Record<string, string>;

/** The environment-variable carrier: `TRACEPARENT` and `TRACESTATE`, each when there is one. */
export type TraceEnvironment = { TRACEPARENT?: string; TRACESTATE?: string };

/**
 * The trace fields of a carrier, string values only: untrusted carriers (an MCP `_meta`, a work
 * item) may hold anything, and the propagator is shown nothing else they hold.
 */
function pickTraceFields(
  carrier: Readonly<Record<string, unknown>>,
  nameOf: (field: string) => string,
): TraceCarrier {
  const fields: TraceCarrier = {};
  for (const field of TRACE_FIELDS) {
    const name = nameOf(field);
    const value = Object.hasOwn(carrier, name) ? carrier[name] : undefined;
    if (typeof value === "string") fields[field] = value;
  }
  return fields;
}

/** Writes what the propagator injects into a plain record. */
const recordSetter: TextMapSetter<TraceCarrier> = {
  set(carrier, key, value) {
    carrier[key] = value;
  },
};

/**
 * The trace fields of `from`, as the registered propagator writes them; empty when it writes none
 * (or without the API).
 */
function traceFields(from: Context): TraceCarrier {
  if (openTelemetryApi === undefined) return {};
  const written: TraceCarrier = {};
  openTelemetryApi.propagation.inject(from, written, recordSetter);
  const fields: TraceCarrier = {};
  for (const name of TRACE_FIELDS) {
    const value = written[name];
    // A tracestate with no valid member serializes to "": there is no state to carry.
    if (value !== undefined && value !== "") fields[name] = value;
  }
  return fields;
}

/**
 * Writes the W3C trace context of `from` (default: the active context) into `carrier` — an
 * outgoing request's headers, an MCP request's `_meta`, a work item's `trace_context` — as
 * `traceparent` and, when there is one, `tracestate`. Through `@opentelemetry/api`'s propagation
 * API with the globally registered propagator: without an SDK (no propagator) or the API, or
 * without a valid span in `from`, nothing is written.
 *
 * @internal
 */
export function injectTraceContext(carrier: TraceCarrier, from: Context = activeContext()): void {
  Object.assign(carrier, traceFields(from));
}

/**
 * The context that continues the trace `carrier` names (`traceparent`, `tracestate`), on top of
 * `into` (default: the active context). A carrier without a valid `traceparent`, values that are
 * not strings, no registered propagator, or no API: `into` unchanged.
 *
 * @internal
 */
export function extractTraceContext(
  carrier: Readonly<Record<string, unknown>> | undefined,
  into: Context = activeContext(),
): Context {
  if (openTelemetryApi === undefined || typeof carrier !== "object" || carrier === null)
    return into;
  return openTelemetryApi.propagation.extract(
    into,
    pickTraceFields(carrier, (field) => field),
  );
}

/**
 * The trace context `carrier` names (`traceparent`, `tracestate`), as the registered propagator
 * reads it and writes it back — what a hop stores to hand on later, such as a run's trace context
 * for its work items. Undefined when it names none that is valid, or without an SDK.
 *
 * @internal
 */
export function readTraceContext(
  carrier: Readonly<Record<string, unknown>> | undefined,
): { traceparent: string; tracestate?: string } | undefined {
  if (openTelemetryApi === undefined) return undefined;
  const root = openTelemetryApi.ROOT_CONTEXT;
  const { traceparent, tracestate } = traceFields(extractTraceContext(carrier, root));
  if (traceparent === undefined) return undefined;
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

/**
 * Runs `fn` in the context that continues the trace `carrier` names: the spans it starts become
 * children of the remote span. Without a usable `traceparent`, `fn` runs in the active context;
 * without the API, it just runs.
 *
 * @internal
 */
export function withTraceContext<Result>(
  carrier: Readonly<Record<string, unknown>> | undefined,
  fn: () => Result,
): Result {
  if (openTelemetryApi === undefined) return fn();
  return openTelemetryApi.context.with(extractTraceContext(carrier), fn);
}

/**
 * The environment variables that hand the trace context of `from` (default: the active context)
 * to a child process: `{ TRACEPARENT, TRACESTATE }` (TRACESTATE only when there is one), as the
 * OpenTelemetry specification of environment variables as context propagation carriers names
 * them; `{}` without an SDK (or the API) or a valid span.
 *
 * @internal
 */
export function traceEnvironment(from: Context = activeContext()): TraceEnvironment {
  const fields = traceFields(from);
  const environment: TraceEnvironment = {};
  if (fields.traceparent !== undefined) environment.TRACEPARENT = fields.traceparent;
  if (fields.tracestate !== undefined) environment.TRACESTATE = fields.tracestate;
  return environment;
}

/**
 * The context that continues the trace a parent process handed over in `environment`
 * (`TRACEPARENT`, `TRACESTATE`; e.g. `process.env`), on top of `into` (default: the active
 * context); `into` unchanged when there is none, or without the API.
 *
 * @internal
 */
export function contextFromEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
  into: Context = activeContext(),
): Context {
  if (openTelemetryApi === undefined) return into;
  return openTelemetryApi.propagation.extract(
    into,
    pickTraceFields(environment, (field) => field.toUpperCase()),
  );
}
