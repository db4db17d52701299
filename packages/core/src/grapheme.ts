let segmenter: Intl.Segmenter | undefined;

/** Below U+0300 there are no combining marks, joiners, prepends, Hangul or regional indicators. */
const isSimple = (code: number) => code < 0x300;

/**
 * The largest index ≤ `index` at which `text` can be cut without splitting a grapheme cluster
 * (emoji sequences, flags, a letter and its combining marks) or a surrogate pair.
 */
export function graphemeBoundaryAtOrBefore(text: string, index: number): number {
  if (index >= text.length) return text.length;
  if (index <= 0) return 0;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  // Between two simple characters there is always a boundary, except inside CR LF.
  if (isSimple(before) && isSimple(after) && !(before === 13 && after === 10)) return index;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  // Whether `index` is a boundary depends only on the text up to and including the character
  // there, so the segmenter need not see the rest.
  return segmenter.segment(text.slice(0, index + 2)).containing(index)?.index ?? index;
}
