/**
 * Counts and truncates text in the tokens of one model family. Both operations are synchronous
 * and never split a grapheme cluster when truncating.
 */
export interface Tokenizer {
  /** A short name shown in warnings, e.g. `o200k_base` or `approximate`. */
  readonly name: string;
  /** The number of tokens in `text`. */
  count(text: string): number;
  /** The longest prefix of `text` (cut at a grapheme boundary) that fits in `maxTokens`. */
  truncate(text: string, maxTokens: number): string;
}
