import { TokenizerUnavailableError } from "./errors/tokenizer-unavailable-error.ts";
import type { Tokenizer } from "./tokenizer.ts";

/**
 * Loads the exact o200k tokenizer on first use, from its own entry point: an application that never
 * calls this never loads (and a bundle never needs to ship eagerly) its 1 MB vocabulary. Same as
 * `import { o200kTokenizer } from "@task-context/core/o200k"`. It needs the optional peer
 * dependency `gpt-tokenizer`; without it, this throws {@link TokenizerUnavailableError}.
 *
 * @example
 * ```ts
 * const tokenizer = await loadO200kTokenizer();
 * const context = await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer });
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
