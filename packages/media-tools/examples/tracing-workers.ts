// Sending task-context's delivery spans to any OTLP backend from a Cloudflare Worker: a provider
// registered once, flushed after each response with waitUntil. Type-checked with the package.
import { trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { memoryWorkspace } from "@task-context/core";
import { createMediaTools, type MediaModels } from "@task-context/media-tools";

declare const models: MediaModels;
interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

//#region workersTracing
let provider: BasicTracerProvider | undefined;

/** The Worker's tracer provider, registered on the first request (when `env` is known). */
function tracing(env: { OTLP_URL: string }): BasicTracerProvider {
  if (provider === undefined) {
    provider = new BasicTracerProvider({
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: env.OTLP_URL }))],
    });
    trace.setGlobalTracerProvider(provider);
  }
  return provider;
}

export default {
  async fetch(request: Request, env: { OTLP_URL: string }, ctx: ExecutionContext) {
    const spans = tracing(env);
    const { prompt } = (await request.json()) as { prompt: string };
    const workspace = memoryWorkspace({ "CONTEXT.md": "We are building Lumen." });
    const { generate_image } = createMediaTools({ workspace, models });
    const result = await generate_image.execute({ prompt });

    ctx.waitUntil(spans.forceFlush()); // send this request's spans after the response
    return Response.json(result);
  },
};
//#endregion
