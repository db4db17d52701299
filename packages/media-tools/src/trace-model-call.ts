import { GEN_AI_ATTRIBUTES, type TaskContext, type Tokenizer } from "@task-context/core";
import { contextViewAttributes } from "@task-context/core/internal";
import { traceDelivery } from "@task-context/core/tracing";
import { recordContextFit, type SentFit } from "./record-context-fit.ts";
import { MEDIA_TOOLS_TRACER } from "./trace-media-tool.ts";

/** The context a model call delivered, and, when it was fitted to the model's profile, as sent. */
export interface DeliveredToModel {
  context: TaskContext;
  sent?: SentFit;
}

/** What the span needs to know of the wrapped model. */
interface ModelIdentity {
  provider: string;
  modelId: string;
}

/**
 * Runs one model call of the middleware inside its delivery span, `chat {modelId}` (the
 * OpenTelemetry GenAI convention for an inference call): a client span with the model, its
 * provider (`openai` of the AI SDK's `openai.chat`) and the context delivered, when there was one
 * (with its view's name, sections and the whole file's hash, when it was a view).
 * A call that fails before reaching the model (no CONTEXT.md) gets the span too, with the error.
 */
export function traceModelCall<Result>(
  model: ModelIdentity,
  delivered: DeliveredToModel | undefined,
  tokenizer: Tokenizer | undefined,
  call: () => PromiseLike<Result>,
): Promise<Result> {
  return traceDelivery(
    {
      tracer: MEDIA_TOOLS_TRACER,
      name: `chat ${model.modelId}`,
      kind: "client",
      recipient: { kind: "model", id: model.modelId },
      attributes: {
        [GEN_AI_ATTRIBUTES.operationName]: "chat",
        [GEN_AI_ATTRIBUTES.requestModel]: model.modelId,
        [GEN_AI_ATTRIBUTES.providerName]: model.provider.split(".")[0] ?? model.provider,
      },
    },
    (span) => {
      const context = delivered?.context;
      if (context?.found) {
        span.recordContext(context, tokenizer);
        span.setAttributes(contextViewAttributes(context));
        recordContextFit(span, delivered?.sent, tokenizer);
      }
      return call();
    },
  );
}
