import type * as OpenTelemetryApi from "@opentelemetry/api";
import { isApiNotInstalled } from "./tracing/api-not-installed.ts";

async function loadOpenTelemetryApi(): Promise<typeof OpenTelemetryApi | undefined> {
  try {
    return await import("@opentelemetry/api");
  } catch (error) {
    if (isApiNotInstalled(error)) return undefined;
    throw error;
  }
}

/**
 * `@opentelemetry/api` when the application has it installed, else undefined: it is an optional
 * peer dependency of `@task-context/core`. Without it no OpenTelemetry SDK can be registered
 * either (every SDK depends on the API), so the tracing entry point does what the API does
 * without an SDK: no spans, no trace context carried. Any other failure to load it throws.
 *
 * On Workers and in browsers (this file) it is imported once, with the tracing entry point, by a
 * top-level await, so that the trace functions stay synchronous; a bundler leaves an import it
 * cannot resolve inside a `try` to run time. On Node, Bun and Deno, `open-telemetry-api.node.ts`
 * requires it instead, so that a CommonJS program can still `require()` the packages that trace
 * (Node refuses to require a module graph with a top-level await).
 */
export const openTelemetryApi: typeof OpenTelemetryApi | undefined = await loadOpenTelemetryApi();
