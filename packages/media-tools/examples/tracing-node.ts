// Sending task-context's delivery spans (and the AI SDK's) to any OTLP backend, on Node: a tracer
// provider with the OTLP/HTTP exporter, registered once at start-up. Run by src/tracing.test.ts
// against a local OTLP receiver.
import { OpenTelemetry } from "@ai-sdk/otel";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { registerTelemetry } from "ai";

/** Registers the tracer provider; call `shutdown()` on it before the process exits. */
export function startTracing(url: string): BasicTracerProvider {
  //#region registerTracing
  const provider = new BasicTracerProvider({
    // url: any OTLP backend's traces endpoint, e.g. http://localhost:4318/v1/traces
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  // Active spans follow `await`, so the AI SDK's spans nest under the media tool's.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  registerTelemetry(new OpenTelemetry()); // the AI SDK's own spans (optional)
  //#endregion
  return provider;
}
