// What an MCP client adds to a request so the server continues its trace: the W3C trace context
// of the active span in `params._meta` (`traceparent`, `tracestate`, which the MCP specification
// reserves there), written by the registered propagator.
import { context, propagation } from "@opentelemetry/api";

/** `{ _meta: { traceparent, tracestate? } }` for a request's params; `{}` when nothing is traced. */
export function traceMeta(): { _meta?: Record<string, string> } {
  //#region traceMeta
  const meta: Record<string, string> = {};
  propagation.inject(context.active(), meta); // { traceparent, tracestate? }
  //#endregion
  return Object.keys(meta).length === 0 ? {} : { _meta: meta };
}
