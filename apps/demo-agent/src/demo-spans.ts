// The demo's OpenTelemetry spans: a real tracer provider that keeps every span in memory while the
// demo runs, then writes them to a file as OTLP/JSON — what an OTLP exporter would have sent.
import { writeFile } from "node:fs/promises";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** The spans recorded since {@link recordDemoSpans}. */
export interface DemoSpans {
  /** Writes the finished spans to `path` as one OTLP/JSON export request; returns their count. */
  write(path: string): Promise<number>;
  /** Unregisters the provider: the API is a no-op again. */
  stop(): Promise<void>;
}

/** Registers a tracer provider that records every span of the demo in memory. */
export function recordDemoSpans(): DemoSpans {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return {
    async write(path) {
      const spans = exporter.getFinishedSpans();
      const request = JsonTraceSerializer.serializeRequest(spans) ?? new Uint8Array();
      const json = JSON.parse(new TextDecoder().decode(request));
      await writeFile(path, `${JSON.stringify(json, null, 2)}\n`);
      return spans.length;
    },
    async stop() {
      trace.disable();
      context.disable();
      await provider.shutdown();
    },
  };
}
