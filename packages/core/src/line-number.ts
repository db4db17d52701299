/** The 1-based line of `text` that holds the UTF-16 offset `offset` (counting line feeds before it). */
export function lineNumberAt(text: string, offset: number, firstLine = 1): number {
  let line = firstLine;
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < offset;
    index = text.indexOf("\n", index + 1)
  ) {
    line++;
  }
  return line;
}
