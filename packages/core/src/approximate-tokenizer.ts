import { requireString, requireWholeNumber } from "./arguments.ts";
import { graphemeBoundaryAtOrBefore } from "./grapheme.ts";
import type { Tokenizer } from "./tokenizer.ts";

// One match per piece that BPE tokenizers such as o200k treat alike: CJK ideographs and kana
// (about a token each), Latin words, other words, digit groups, whitespace runs, emoji sequences
// and single symbols.
const PIECE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|\p{Script=Hangul}+|[A-Za-z]+|[\p{L}\p{M}]+|\p{N}{1,3}|[^\S\n]+|\n+|\p{Extended_Pictographic}(?:[\u{1F3FB}-\u{1F3FF}\uFE0F]|\u200D\p{Extended_Pictographic})*|[\u{1F1E6}-\u{1F1FF}]{1,2}|[\s\S]/gu;

const LATIN_LETTER = /^[A-Za-z]/;
const SPACE_RUN = /^[^\S\n]/;
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /^\p{Script=Hangul}/u;
const LETTER = /^[\p{L}\p{M}]/u;
const NUMBER = /^\p{N}/u;
const PICTOGRAPH = /^[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}]/u;

/** Estimated tokens of one piece matched by PIECE. */
function piecePrice(piece: string, previous: string): number {
  const length = piece.length;
  if (LATIN_LETTER.test(piece)) return 1 + Math.floor(length / 9);
  if (SPACE_RUN.test(piece)) return length === 1 ? 0 : 1;
  if (piece.charCodeAt(0) === 10) return 1;
  if (CJK.test(piece)) return 1;
  if (HANGUL.test(piece)) return Math.ceil(length / 2);
  if (LETTER.test(piece)) return Math.ceil(length / 4);
  if (NUMBER.test(piece)) return 1;
  // Emoji cost about a token per UTF-16 unit: 🚀 2, a flag 4, 👨‍👩‍👧‍👦 11.
  if (PICTOGRAPH.test(piece)) return Math.max(1, Math.round(length * 0.9));
  // Punctuation often merges with a neighbouring symbol ("()", "//", "```").
  return previous.length === 1 && !LETTER.test(previous) && !NUMBER.test(previous) ? 0.5 : 1;
}

/** The longest prefix of `piece` whose price, added to `total`, stays within `budget`. */
function fittingPrefixLength(piece: string, previous: string, total: number, budget: number) {
  // A piece's price never falls as it grows, so the longest fitting prefix is found by bisection.
  let low = 0;
  let high = piece.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (Math.ceil(total + piecePrice(piece.slice(0, middle), previous)) <= budget) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Walks the pieces of `text` until `budget` runs out. `end` is where it ran out: inside the piece
 * that goes over budget, after its longest prefix that still fits (a word longer than the whole
 * budget keeps its first letters rather than nothing).
 */
function measure(text: string, budget: number): { tokens: number; end: number } {
  let total = 0;
  let previous = "";
  PIECE.lastIndex = 0;
  for (let match = PIECE.exec(text); match !== null; match = PIECE.exec(text)) {
    const piece = match[0];
    const next = total + piecePrice(piece, previous);
    if (Math.ceil(next) > budget) {
      const end = match.index + fittingPrefixLength(piece, previous, total, budget);
      return { tokens: Math.ceil(total), end };
    }
    total = next;
    previous = piece;
  }
  return { tokens: Math.ceil(total), end: text.length };
}

/**
 * A fast, dependency-free token estimate that knows scripts: Latin words cost about a token each,
 * CJK characters a token each, other scripts a token per few letters, digits a token per group of
 * three. Within about ±25 % of o200k on prose, code and CJK (far better than characters ÷ 4, which
 * is off by up to −63 % on CJK). Use it where an exact count is not worth 1 MB of vocabulary.
 */
export const approximateTokenizer: Tokenizer = {
  name: "approximate",
  count(text: string): number {
    requireString("text", text);
    return measure(text, Number.POSITIVE_INFINITY).tokens;
  },
  truncate(text: string, maxTokens: number): string {
    requireString("text", text);
    requireWholeNumber("maxTokens", maxTokens, 0);
    const { end } = measure(text, maxTokens);
    return text.slice(0, graphemeBoundaryAtOrBefore(text, end));
  },
};
