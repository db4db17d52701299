// How every process of the demo records its OpenTelemetry spans: a real tracer provider that keeps
// them in memory, the AsyncLocalStorage context manager (spans nest across `await`) and the W3C
// trace context propagator (what an SDK registers by default), so the trace crosses each hop.
// It imports nothing of @task-context/* (the MCP subagent uses it and must not load core).
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** The spans a process records, and how it stops recording. */
export interface SpanRecording {
  /** The finished spans, oldest first. */
  finished(): ReadableSpan[];
  /** Unregisters the provider, the context manager and the propagator. */
  stop(): Promise<void>;
}

/** One OTLP/JSON export request, as an OTLP exporter sends it (`resourceSpans` at the top). */
export interface OtlpTraces {
  resourceSpans: unknown[];
}

/**
 * Registers the in-memory tracer provider, the context manager and the W3C propagator; the spans
 * name their process `service` (`service.name`), as a backend lists it.
 */
export function registerSpanRecording(service: string): SpanRecording {
  const exporter = new InMemorySpanExporter();
  //#region registerTracing
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": service }),
    spanProcessors: [new SimpleSpanProcessor(exporter)], // or a BatchSpanProcessor to OTLP
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  // traceparent/tracestate in and out of every hop (NodeSDK registers it by default).
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  //#endregion
  return {
    finished: () => exporter.getFinishedSpans(),
    async stop() {
      trace.disable();
      context.disable();
      propagation.disable();
      await provider.shutdown();
    },
  };
}

/** `spans` as one OTLP/JSON export request. */
export function otlpTraces(spans: ReadableSpan[]): OtlpTraces {
  const request = JsonTraceSerializer.serializeRequest(spans) ?? new Uint8Array();
  const json = JSON.parse(new TextDecoder().decode(request)) as Partial<OtlpTraces>;
  return { ...json, resourceSpans: json.resourceSpans ?? [] };
}
