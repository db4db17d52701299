import { createCustomSpan } from "@openai/agents";
import type { CheckedDeliveryOptions } from "./delivery-options.ts";
import type { TaskContextReceipt } from "./task-context-receipt.ts";

/** The name of the custom span that carries a delivery's receipt in the run's trace. */
export const RECEIPT_SPAN_NAME = "task_context";

/** The receipt as span data, in the snake_case of the SDK's own span data (`from_agent`). */
function spanData(receipt: TaskContextReceipt): Record<string, unknown> {
  const data: Record<string, unknown> = { agent: receipt.agent, route: receipt.route };
  if (receipt.contextSha256 !== undefined) data.context_sha256 = receipt.contextSha256;
  if (receipt.contextView !== undefined) {
    data.context_view = {
      name: receipt.contextView.name,
      sections: [...receipt.contextView.sections],
      file_sha256: receipt.contextView.fileSha256,
    };
  }
  if (receipt.warning !== undefined) data.warning = receipt.warning;
  return data;
}

/**
 * Records a delivery's receipt: a custom span `task_context` in the run's trace, under the span
 * that is current (the handoff's, or the agent tool's function span), and `onDelivery`. Without
 * an active trace (tracing disabled) the SDK makes the span a no-op.
 */
export function recordReceipt(options: CheckedDeliveryOptions, receipt: TaskContextReceipt): void {
  const span = createCustomSpan({ data: { name: RECEIPT_SPAN_NAME, data: spanData(receipt) } });
  span.start();
  span.end();
  options.onDelivery?.(receipt);
}
