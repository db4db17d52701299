import { sha256Hex } from "#sha256";
import type { Tokenizer } from "./tokenizer.ts";

/** Results kept per tokenizer: the last few texts cut to their budgets. */
const CACHE_SIZE = 16;
const cache = new WeakMap<Tokenizer, Map<string, string>>();

/**
 * `tokenizer.truncate(text, maxTokens)`, remembered by the text's hash and the budget. Every tool
 * call loads CONTEXT.md again, and an exact tokenizer can take a large fraction of a second on a
 * pathological text (one 10 000-letter word); a file that has not changed is cut only once.
 */
export async function fitTokenBudget(
  text: string,
  maxTokens: number,
  tokenizer: Tokenizer,
): Promise<string> {
  let results = cache.get(tokenizer);
  if (results === undefined) {
    results = new Map();
    cache.set(tokenizer, results);
  }
  const key = `${maxTokens}:${await sha256Hex(text)}`;
  const known = results.get(key);
  if (known !== undefined) {
    // Most recently used last, so the oldest entry is the one dropped.
    results.delete(key);
    results.set(key, known);
    return known;
  }
  const fitted = tokenizer.truncate(text, maxTokens);
  results.set(key, fitted);
  if (results.size > CACHE_SIZE) results.delete(results.keys().next().value as string);
  return fitted;
}
