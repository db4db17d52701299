import {
  countTokens,
  decode,
  encodeGenerator,
  isWithinTokenLimit,
} from "gpt-tokenizer/encoding/o200k_base";
import { InvalidArgumentError } from "./errors/invalid-argument-error.ts";
import { graphemeBoundaryAtOrBefore } from "./grapheme.ts";
import type { Tokenizer } from "./tokenizer.ts";

// Special-token text such as "<|endoftext|>" in a CONTEXT.md is ordinary text, as in tiktoken's
// encode_ordinary.
const ORDINARY = { disallowedSpecial: new Set<string>() };

const fits = (text: string, maxTokens: number) =>
  isWithinTokenLimit(text, maxTokens, ORDINARY) !== false;

/** Length of the longest prefix of `decoded` without the U+FFFD of a character cut by a token. */
function completeLength(decoded: string): number {
  let end = decoded.length;
  while (end > 0 && decoded.charCodeAt(end - 1) === 0xfffd) end--;
  return end;
}

/**
 * The exact OpenAI `o200k_base` tokenizer (GPT-4o, GPT-4.1, GPT-5, o-series), backed by
 * gpt-tokenizer. It lives in its own entry point, `@task-context/core/o200k`, so bundles that do
 * not count tokens never carry its vocabulary.
 *
 * `truncate` encodes only as far as the budget reaches (pre-tokenized chunk by chunk), cuts at a
 * grapheme boundary and checks the result, so truncating a 1 MB text to 2 000 tokens costs about
 * one encode of the kept prefix.
 *
 * @example
 * ```ts
 * import { loadTaskContext } from "@task-context/core";
 * import { o200kTokenizer } from "@task-context/core/o200k";
 *
 * const context = await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: o200kTokenizer });
 * ```
 */
export const o200kTokenizer: Tokenizer = {
  name: "o200k_base",
  count(text: string): number {
    return countTokens(text, ORDINARY);
  },
  truncate(text: string, maxTokens: number): string {
    if (!Number.isSafeInteger(maxTokens) || maxTokens < 0) {
      throw new InvalidArgumentError(
        "maxTokens",
        `expected a whole number ≥ 0, got ${String(maxTokens)}.`,
      );
    }
    if (maxTokens === 0) return "";
    let used = 0;
    let end = 0;
    let exhausted = true;
    for (const chunk of encodeGenerator(text, ORDINARY)) {
      if (used + chunk.length > maxTokens) {
        // Part of this chunk still fits: keep the characters its first tokens spell.
        end += completeLength(decode(chunk.slice(0, maxTokens - used)));
        exhausted = false;
        break;
      }
      used += chunk.length;
      end += decode(chunk).length;
    }
    if (exhausted) return text;
    let cut = graphemeBoundaryAtOrBefore(text, end);
    // Re-encoding a prefix can merge differently at its end; step back a grapheme until it fits.
    while (cut > 0 && !fits(text.slice(0, cut), maxTokens))
      cut = graphemeBoundaryAtOrBefore(text, cut - 1);
    return text.slice(0, cut);
  },
};
