import { TokenizerUnavailableError } from "./errors/tokenizer-unavailable-error.ts";
import type { Tokenizer } from "./tokenizer.ts";

/**
 * Loads the exact o200k tokenizer on first use, from its own entry point: an application that never
 * calls this never loads (and a bundle never needs to ship eagerly) its 1 MB vocabulary. Same as
 * `import { o200kTokenizer } from "@task-context/core/o200k"`. It needs the optional peer
 * dependency `gpt-tokenizer`; without it, this throws {@link TokenizerUnavailableError}.
 *
 * @example
 * ```ts source="../examples/token-budgets.ts#tokenBudget"
 * // Exact OpenAI o200k_base counts (needs the optional peer dependency gpt-tokenizer):
 * await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: o200kTokenizer });
 * // The same tokenizer, loaded on first use from the main entry point:
 * await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: await loadO200kTokenizer() });
 * // No vocabulary at all, within about ±25 % of o200k:
 * await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: approximateTokenizer });
 * ```
 */
export async function loadO200kTokenizer(): Promise<Tokenizer> {
  try {
    const { o200kTokenizer } = await import("@task-context/core/o200k");
    return o200kTokenizer;
  } catch (error) {
    if (error instanceof Error && error.message.includes("gpt-tokenizer")) {
      throw new TokenizerUnavailableError({ cause: error });
    }
    throw error;
  }
}
