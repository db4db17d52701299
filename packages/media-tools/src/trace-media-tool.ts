import { GEN_AI_ATTRIBUTES } from "@task-context/core";
import { type DeliverySpan, traceDelivery } from "@task-context/core/tracing";

/** The instrumentation scope of the media tools' and the middleware's spans. */
export const MEDIA_TOOLS_TRACER = "@task-context/media-tools";

/** What every media tool resolves to, as far as its span is concerned. */
interface ToolOutcome {
  success: boolean;
  error?: string;
  code?: string;
}

/** The AI SDK's tool-call id from a call's options; direct callers may pass anything there. */
function toolCallIdOf(callOptions: unknown): string | undefined {
  try {
    const id = (callOptions as { toolCallId?: unknown } | null | undefined)?.toolCallId;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs one media-tool call inside its delivery span, `execute_tool {name}` (the OpenTelemetry
 * GenAI convention for a tool execution): the model calls the tools inside that span nest under
 * it, and a `{ success: false }` result marks it failed with the result's `code` as `error.type`.
 */
export function traceMediaTool<Result extends ToolOutcome>(
  name: string,
  callOptions: unknown,
  call: (span: DeliverySpan) => Promise<Result>,
): Promise<Result> {
  const toolCallId = toolCallIdOf(callOptions);
  return traceDelivery(
    {
      tracer: MEDIA_TOOLS_TRACER,
      name: `execute_tool ${name}`,
      recipient: { kind: "media-tool", id: name },
      attributes: {
        [GEN_AI_ATTRIBUTES.operationName]: "execute_tool",
        [GEN_AI_ATTRIBUTES.toolName]: name,
        [GEN_AI_ATTRIBUTES.toolType]: "function",
        ...(toolCallId !== undefined ? { [GEN_AI_ATTRIBUTES.toolCallId]: toolCallId } : {}),
      },
    },
    async (span) => {
      const result = await call(span);
      if (!result.success) span.fail(result.code ?? "_OTHER", result.error ?? "The tool failed.");
      return result;
    },
  );
}
