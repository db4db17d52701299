import {
  countTokens,
  decode,
  encodeGenerator,
  isWithinTokenLimit,
} from "gpt-tokenizer/encoding/o200k_base";
import { requireString, requireWholeNumber } from "./arguments.ts";
import { graphemeBoundaryAtOrBefore } from "./grapheme.ts";
import type { Tokenizer } from "./tokenizer.ts";

// Special-token text such as "<|endoftext|>" in a CONTEXT.md is ordinary text, as in tiktoken's
// encode_ordinary.
const ORDINARY = { disallowedSpecial: new Set<string>() };

const fits = (text: string, maxTokens: number) =>
  isWithinTokenLimit(text, maxTokens, ORDINARY) !== false;

/**
 * The text of one complete pre-tokenized chunk starting at `at`. gpt-tokenizer decodes through one
 * shared streaming decoder, so bytes left over by another caller's partial decode come out first;
 * that call consumes them, and a second decode is clean.
 */
function chunkText(chunk: number[], text: string, at: number): string {
  const decoded = decode(chunk);
  return text.startsWith(decoded, at) ? decoded : decode(chunk);
}

/**
 * The longest prefix of `piece` (one pre-tokenized chunk, whose tokens are `tokens`) that encodes
 * in `budget` tokens. The decoded first `budget` tokens are the candidate: BPE of a prefix almost
 * always gives the same tokens, so one check usually confirms it, and otherwise the cut steps back
 * a token at a time. Bisecting over prefix lengths instead would encode a long chunk many times,
 * and BPE is quadratic in the chunk's length (a 10 000-letter word takes 0.15 s per encode).
 */
function fittingPrefixLength(piece: string, tokens: number[], budget: number): number {
  for (let count = Math.min(budget, tokens.length); count > 0; count--) {
    const head = tokens.slice(0, count);
    // As in chunkText, a first decode may start with another call's leftover bytes.
    let prefix = decode(head);
    if (!piece.startsWith(prefix)) prefix = decode(head);
    // A cut inside a multi-byte character decodes to U+FFFD: drop it.
    while (prefix !== "" && !piece.startsWith(prefix)) prefix = prefix.slice(0, -1);
    const code = prefix.charCodeAt(prefix.length - 1);
    const length = code >= 0xd800 && code <= 0xdbff ? prefix.length - 1 : prefix.length;
    if (length > 0 && fits(piece.slice(0, length), budget)) return length;
  }
  return 0;
}

/** Where the budget runs out: the tokens of the whole chunks before `chunkStart`, and a cut after it. */
interface BudgetEnd {
  /** Tokens of the complete chunks that end at `chunkStart`. */
  used: number;
  /** Where the chunk in which the budget runs out starts (a reliable pre-tokenization boundary). */
  chunkStart: number;
  /** The proposed cut, ≥ chunkStart. */
  end: number;
}

/**
 * Where the first `maxTokens` tokens of `text` end (in UTF-16 units), walking pre-tokenized chunks.
 * Returns undefined when the answer depends on the last chunk of a window that is not the whole text.
 */
function budgetEnd(text: string, maxTokens: number, whole: boolean): BudgetEnd | undefined {
  let used = 0;
  let end = 0;
  for (const chunk of encodeGenerator(text, ORDINARY)) {
    const piece = chunkText(chunk, text, end);
    const chunkEnd = end + piece.length;
    if (used + chunk.length > maxTokens) {
      if (!whole && chunkEnd >= text.length) return undefined;
      // Part of this chunk may still fit.
      return {
        used,
        chunkStart: end,
        end: end + fittingPrefixLength(piece, chunk, maxTokens - used),
      };
    }
    used += chunk.length;
    end = chunkEnd;
  }
  return whole ? { used, chunkStart: end, end } : undefined;
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
 * ```ts source="../examples/token-budgets.ts#tokenBudget"
 * // Exact OpenAI o200k_base counts (needs the optional peer dependency gpt-tokenizer):
 * await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: o200kTokenizer });
 * // The same tokenizer, loaded on first use from the main entry point:
 * await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: await loadO200kTokenizer() });
 * // No vocabulary at all, within about ±25 % of o200k:
 * await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: approximateTokenizer });
 * ```
 */
export const o200kTokenizer: Tokenizer = {
  name: "o200k_base",
  count(text: string): number {
    requireString("text", text);
    return countTokens(text, ORDINARY);
  },
  truncate(text: string, maxTokens: number): string {
    requireString("text", text);
    requireWholeNumber("maxTokens", maxTokens, 0);
    if (maxTokens === 0) return "";
    // Encode a window that should hold the budget (tokens rarely span more than a few characters),
    // growing it when it does not; the window's last chunk may be cut short, so it never decides.
    // A text less than twice the window is encoded whole: a second, larger window would cost more.
    const initial = maxTokens * 8 + 64;
    let window = text.length < 2 * initial ? text.length : initial;
    let found = budgetEnd(text.slice(0, window), maxTokens, window === text.length);
    while (found === undefined) {
      window = Math.min(text.length, window * 2);
      found = budgetEnd(text.slice(0, window), maxTokens, window === text.length);
    }
    const { used, chunkStart, end } = found;
    if (end === text.length) return text;
    // Chunks before chunkStart pre-tokenize the same in the prefix, so only the text after it needs
    // counting again: BPE can merge a cut chunk differently. Step back a grapheme until it fits.
    const fitsUpTo = (cut: number) =>
      cut >= chunkStart
        ? fits(text.slice(chunkStart, cut), maxTokens - used)
        : fits(text.slice(0, cut), maxTokens);
    let cut = graphemeBoundaryAtOrBefore(text, end);
    while (cut > 0 && cut !== chunkStart && !fitsUpTo(cut))
      cut = graphemeBoundaryAtOrBefore(text, cut - 1);
    return text.slice(0, cut);
  },
};
