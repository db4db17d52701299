/**
 * The delivery spans the task-context packages open, for their own use: `traceDelivery` around a
 * delivery, `deliverToAgent` around an agent framework's delivery to an agent, `currentDelivery`
 * for code deep inside one; and the W3C trace context each hop carries (`injectTraceContext`,
 * `extractTraceContext`, `withTraceContext`, `readTraceContext`, and the environment-variable
 * forms `traceEnvironment`, `contextFromEnvironment`). The only entry point of the package that
 * loads `@opentelemetry/api`, so a package that does not trace (and every user of the main entry
 * point or of `@task-context/core/internal`) never loads it. Not part of the public API: names
 * and signatures may change in any release; the attribute names are public, from the main entry
 * point.
 *
 * @internal
 * @module
 */

export { type AgentDeliveryOptions, deliverToAgent } from "./tracing/deliver-to-agent.ts";
export {
  contextFromEnvironment,
  extractTraceContext,
  injectTraceContext,
  readTraceContext,
  type TraceCarrier,
  type TraceEnvironment,
  traceEnvironment,
  withTraceContext,
} from "./tracing/trace-carrier.ts";
export {
  currentDelivery,
  type DeliveredContext,
  type DeliverySpan,
  type DeliverySpanOptions,
  errorTypeOf,
  traceDelivery,
} from "./tracing/trace-delivery.ts";
