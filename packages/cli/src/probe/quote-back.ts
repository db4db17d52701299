import {
  type ContextView,
  contextHeadings,
  loadO200kTokenizer,
  loadTaskContext,
  redactSecrets,
} from "@task-context/core";
import { thrownMessage } from "@task-context/core/internal";
import { nodeWorkspace } from "@task-context/core/node";
import { middlewareDelivery } from "./ai-sdk-paths.ts";
import type { ProbePath } from "./probe-paths.ts";

/** What the model is asked: the canary lines, quoted back, nothing else. */
export const QUOTE_BACK_REQUEST =
  'Quote, exactly and each on a line of its own, every line of the task context that begins with "task-context canary". Write nothing else.';

/** Where and which model to ask: an endpoint that speaks OpenAI's chat completions. */
export interface QuoteBackOptions {
  /** The endpoint's base URL, e.g. `https://api.openai.com/v1` or a local server's. */
  baseURL: string;
  /** The model id the endpoint knows, e.g. `gpt-5-mini`. */
  model: string;
  /** The API key, sent as a bearer token; never printed (errors have it redacted). */
  apiKey?: string;
  /** The view of CONTEXT.md the model is given: it is then owed that view's sections only. */
  view?: ContextView;
}

/** What asking the model costs: one call, and an estimate of its tokens. */
export interface QuoteBackCost {
  calls: number;
  /** The context, the canary lines and the request, counted with o200k_base. */
  inputTokens: number;
  /** The canary lines the model should write back. */
  outputTokens: number;
}

/** A canary line as long as the probe plants them, for counting. */
const SAMPLE_CANARY = "task-context canary 0123456789abcdef0123456789abcdef section 10";

/**
 * An estimate of what the quote-back costs for `workspace`: one call, whose input is its
 * CONTEXT.md (or the view of it) with the canary lines and the request, and whose output is the
 * canary lines. Counted with o200k_base; the provider's own count differs somewhat.
 */
export async function quoteBackCost(
  workspace: string,
  { view }: Pick<QuoteBackOptions, "view"> = {},
): Promise<QuoteBackCost> {
  const tokenizer = await loadO200kTokenizer();
  const context = await loadTaskContext(
    nodeWorkspace(workspace),
    view === undefined ? {} : { view },
  );
  const canaries = (contextHeadings(context.content).length + 2) * tokenizer.count(SAMPLE_CANARY);
  const input = `[Task Context]\n${context.content}\n\n[Request]\n${QUOTE_BACK_REQUEST}`;
  return { calls: 1, inputTokens: tokenizer.count(input) + canaries, outputTokens: canaries };
}

/** `message` with the key and any other secret in it redacted. */
function redacted(message: string, apiKey: string | undefined): string {
  const withoutKey =
    apiKey === undefined || apiKey === "" ? message : message.replaceAll(apiKey, "[redacted]");
  return redactSecrets(withoutKey).text;
}

/**
 * A path that asks a real model, through the AI SDK's OpenAI-compatible provider with
 * `taskContextMiddleware`, to quote the canary lines back: what it writes is what it received,
 * as far as it can tell. Undefined when `@task-context/media-tools`, `ai` or
 * `@ai-sdk/openai-compatible` cannot be loaded here. It costs one call: see {@link quoteBackCost}.
 */
export async function quoteBackPath(options: QuoteBackOptions): Promise<ProbePath | undefined> {
  let media: typeof import("@task-context/media-tools");
  let ai: typeof import("ai");
  let provider: typeof import("@ai-sdk/openai-compatible");
  try {
    media = await import("@task-context/media-tools");
    ai = await import("ai");
    provider = await import("@ai-sdk/openai-compatible");
  } catch {
    return undefined;
  }
  const { baseURL, model: modelId, apiKey, view } = options;
  return {
    name: `quote-back (${modelId})`,
    async send({ directory }) {
      const model = provider.createOpenAICompatible({
        name: "task-context-probe",
        baseURL,
        ...(apiKey === undefined ? {} : { apiKey }),
      })(modelId);
      const wrapped = ai.wrapLanguageModel({
        model,
        middleware: media.taskContextMiddleware({
          workspace: nodeWorkspace(directory),
          ...(view === undefined ? {} : { view }),
        }),
      });
      try {
        const result = await ai.generateText({
          model: wrapped,
          prompt: QUOTE_BACK_REQUEST,
          maxRetries: 0,
        });
        return middlewareDelivery(result.text, result.providerMetadata, view);
      } catch (error) {
        throw new Error(
          redacted(
            thrownMessage(error, "the model call threw a value that is not an error"),
            apiKey,
          ),
        );
      }
    },
  };
}
