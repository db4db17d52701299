import { createRequire } from "node:module";
import type * as OpenTelemetryApi from "@opentelemetry/api";
import { isApiNotInstalled } from "./tracing/api-not-installed.ts";

function loadOpenTelemetryApi(): typeof OpenTelemetryApi | undefined {
  try {
    // The API's only build for Node is CommonJS (its `default` export): `import` and `require`
    // load the same module instance.
    return createRequire(import.meta.url)("@opentelemetry/api") as typeof OpenTelemetryApi;
  } catch (error) {
    if (isApiNotInstalled(error)) return undefined;
    throw error;
  }
}

/**
 * `@opentelemetry/api` when the application has it installed, else undefined (see
 * `open-telemetry-api.ts`). On Node, Bun and Deno it is required synchronously, without a
 * top-level await, so that a CommonJS program can still `require()` the packages that trace.
 */
export const openTelemetryApi: typeof OpenTelemetryApi | undefined = loadOpenTelemetryApi();
