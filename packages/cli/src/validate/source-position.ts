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
