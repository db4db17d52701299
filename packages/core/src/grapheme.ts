let segmenter: Intl.Segmenter | undefined;

/**
 * The largest index ≤ `index` at which `text` can be cut without splitting a grapheme cluster
 * (emoji sequences, flags, a letter and its combining marks) or a surrogate pair.
 */
export function graphemeBoundaryAtOrBefore(text: string, index: number): number {
  if (index >= text.length) return text.length;
  if (index <= 0) return 0;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return segmenter.segment(text).containing(index)?.index ?? index;
}
