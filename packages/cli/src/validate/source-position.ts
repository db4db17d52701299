/** A 1-based line and column (in UTF-16 units, as editors count them for most text). */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Maps string offsets to lines and columns. */
export function positionFinder(text: string): (offset: number) => SourcePosition {
  const starts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    starts.push(index + 1);
  }
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (starts[low] as number) + 1 };
  };
}

/**
 * The keys and indexes of a JSON Pointer (RFC 6901). protocols keeps its own copy internal; the
 * CLI reads the pointers `validate()` returns.
 */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}
