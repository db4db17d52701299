import {
  approximateTokenizer,
  contextHeadings,
  fitContextSections,
  injectTaskContext,
  type Tokenizer,
} from "@task-context/core";
import type { ModelProfile, PromptLimit } from "./model-profile.ts";

/**
 * The receipt of a context fitted to a model's limit: which profile and limit, which sections of
 * CONTEXT.md were kept and which left out.
 */
export interface ContextFit {
  /** The profile applied: `provider/modelId`, e.g. `"openai/whisper-1"`. */
  profile: string;
  /** The model's prompt limit, and what its API does beyond it. */
  limit: PromptLimit;
  /** The headings of the sections delivered, in CONTEXT.md's order. */
  kept: string[];
  /** The headings of the sections left out. */
  dropped: string[];
  /** True when even the top of CONTEXT.md (its goal) was cut short. */
  cut: boolean;
  /** True when no context was sent at all: the request alone fills the limit. */
  leftOut: boolean;
  /** The SHA-256 of the context as loaded, before it was fitted (`contextSha256` is the fitted text's). */
  loadedSha256: string;
}

/** What {@link fitContextToProfile} returns: the text to send, and the fit when one was needed. */
export interface FittedPrompt {
  /** The request with the (fitted) context in front, or the request alone. */
  prompt: string;
  /** The context that was sent ("" when it was left out). */
  context: string;
  /** Present when the context was fitted or left out. */
  fit?: ContextFit;
  /** The sentence that tells the agent what was cut. */
  warning?: string;
}

/**
 * Of a token limit, the share the fitted prompt may use: task-context counts with its own
 * tokenizer, not the model's, and keeps the rest free so that the model's count stays within it.
 */
const TOKEN_SHARE = 0.9;

function describeLimit(limit: PromptLimit): string {
  const amount = `${limit.amount} ${limit.unit}`;
  switch (limit.overflow) {
    case "keeps-start":
      return `${amount}; it reads only the first ${limit.amount}`;
    case "keeps-end":
      return `${amount}; it reads only the last ${limit.amount}`;
    case "rejects":
      return `${amount}; it refuses longer prompts`;
    case "unknown":
      return amount;
  }
}

const quoted = (headings: string[]) =>
  headings.map((heading) => JSON.stringify(heading)).join(", ");

/** The warning sentence for a fit. */
function fitWarning(fit: ContextFit, used: number): string {
  const limit = `${fit.profile}'s prompt limit (${describeLimit(fit.limit)})`;
  if (fit.leftOut)
    return `The task context was left out: the request alone uses about ${used} of ${limit}. Shorten the request to leave room for CONTEXT.md.`;
  const kept =
    fit.kept.length > 0 ? `kept ${quoted(fit.kept)}` : "kept the text before its first heading";
  const dropped = fit.dropped.length > 0 ? `; left out ${quoted(fit.dropped)}` : "";
  const cut = fit.cut ? ", cut short" : "";
  return `The task context was fitted to ${limit}: ${kept}${cut}${dropped}. Put what every model must know first in CONTEXT.md, under "What we are building" and "Key terminology".`;
}

/** Options of {@link fitContextToProfile}. */
export interface FitContextOptions {
  /** The loaded task context. */
  context: string;
  /** Its SHA-256, for the receipt. */
  contextSha256: string;
  /** The request the context goes in front of: never cut. */
  request: string;
  /** Other text the same limit counts (earlier messages of a conversation); never cut. */
  alongside?: string;
  profile: ModelProfile;
  /** Counts tokens for a token limit (default: core's approximate tokenizer). */
  tokenizer?: Tokenizer | undefined;
}

/**
 * The request with the task context in front, fitted to the profile's prompt limit: unchanged
 * when it fits (or the profile has no limit); otherwise the context's most important sections
 * that fit (core's `fitContextSections`: the goal, the key terms, then the rest in order), or no
 * context at all when the request alone fills the limit. The request is never cut.
 */
export async function fitContextToProfile(options: FitContextOptions): Promise<FittedPrompt> {
  const { context, request, profile } = options;
  const whole = injectTaskContext(request, context);
  const limit = profile.promptLimit;
  if (limit === undefined) return { prompt: whole, context };
  const tokenizer = options.tokenizer ?? approximateTokenizer;
  const alongside = options.alongside ?? "";
  const measure = (text: string) =>
    limit.unit === "characters" ? text.length : tokenizer.count(text);
  const usable =
    limit.unit === "characters" ? limit.amount : Math.floor(limit.amount * TOKEN_SHARE);
  const size = (prompt: string) => measure(prompt) + measure(alongside);
  if (size(whole) <= usable) return { prompt: whole, context };

  const frame = size(injectTaskContext(request, "\u0000")) - measure("\u0000");
  let budget = usable - frame;
  let fitted = { content: "", kept: [] as string[], dropped: [] as string[], cut: true };
  // Tokens do not quite add up across the seams: shrink the budget until the whole fits.
  while (budget > 0) {
    fitted = await fitContextSections(
      context,
      limit.unit === "characters"
        ? { unit: "characters", amount: budget }
        : { unit: "tokens", amount: budget, tokenizer },
    );
    const over = size(injectTaskContext(request, fitted.content)) - usable;
    if (fitted.content === "" || over <= 0) break;
    budget -= over;
  }
  const leftOut = budget <= 0 || fitted.content === "";
  const fit: ContextFit = {
    profile: `${profile.provider}/${profile.modelId}`,
    limit: { ...limit },
    kept: leftOut ? [] : fitted.kept,
    dropped: leftOut ? contextHeadings(context).map(({ text }) => text) : fitted.dropped,
    cut: !leftOut && fitted.cut,
    leftOut,
    loadedSha256: options.contextSha256,
  };
  const sent = leftOut ? "" : fitted.content;
  const prompt = leftOut ? request : injectTaskContext(request, sent);
  return { prompt, context: sent, fit, warning: fitWarning(fit, size(request)) };
}
