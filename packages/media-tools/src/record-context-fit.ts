import { DELIVERY_ATTRIBUTES, type Tokenizer } from "@task-context/core";
import type { DeliverySpan } from "@task-context/core/tracing";
import type { ContextFit } from "./fit-context-to-profile.ts";

/** A context fitted to a model's profile, as sent: the fit, the text sent and its hash. */
export interface SentFit {
  fit: ContextFit;
  text: string;
  sha256: string;
}

/**
 * Records on a delivery span that the context was fitted to a model's prompt limit: the hash,
 * length and tokens (with a tokenizer) of what was sent replace those of the context as loaded
 * (whose hash is kept as `task_context.context.loaded_sha256`), with the profile and the sections
 * left out. Nothing when there was no fit, or nothing records.
 */
export function recordContextFit(
  span: DeliverySpan,
  sent: SentFit | undefined,
  tokenizer: Tokenizer | undefined,
): void {
  if (sent === undefined || !span.recording) return;
  span.setAttributes(contextFitAttributes(sent, tokenizer));
}

/** The attributes {@link recordContextFit} records. */
export function contextFitAttributes(
  sent: SentFit,
  tokenizer: Tokenizer | undefined,
): Record<string, string | number | boolean | string[]> {
  const { fit } = sent;
  return {
    ...(tokenizer === undefined
      ? {}
      : { [DELIVERY_ATTRIBUTES.contextTokens]: tokenizer.count(sent.text) }),
    [DELIVERY_ATTRIBUTES.contextSha256]: sent.sha256,
    [DELIVERY_ATTRIBUTES.contextCharacters]: sent.text.length,
    [DELIVERY_ATTRIBUTES.contextTruncated]: fit.cut || fit.leftOut || fit.dropped.length > 0,
    [DELIVERY_ATTRIBUTES.contextLoadedSha256]: fit.loadedSha256,
    [DELIVERY_ATTRIBUTES.contextFitProfile]: fit.profile,
    [DELIVERY_ATTRIBUTES.contextFitDropped]: fit.dropped,
    [DELIVERY_ATTRIBUTES.contextFitLeftOut]: fit.leftOut,
  };
}
