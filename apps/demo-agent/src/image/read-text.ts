import { GLYPH_ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, GLYPHS } from "./glyphs.ts";
import type { RgbImage } from "./png.ts";

/** One line of text found in an image, with the height of its letters in pixels. */
export interface TextLine {
  text: string;
  height: number;
}

const pattern = (glyph: readonly string[]) => glyph.join("");
const BY_PATTERN = new Map(
  Object.entries(GLYPHS).map(([character, glyph]) => [pattern(glyph), character]),
);

/**
 * Reads the lines of text drawn in the demo's pixel font: rows of ink (any colour but the
 * background, the top-left pixel's) form bands, each band is one line, its height gives the
 * scale (so a line needs one glyph that spans all seven rows), and every 6-column cell is matched
 * against the font. A band that does not match the font is skipped: the reader says nothing
 * rather than guess.
 */
export function readText(image: RgbImage): TextLine[] {
  const { width, height, pixels } = image;
  const background = pixels.subarray(0, 3);
  const ink = (x: number, y: number) => {
    const at = (y * width + x) * 3;
    return (
      pixels[at] !== background[0] ||
      pixels[at + 1] !== background[1] ||
      pixels[at + 2] !== background[2]
    );
  };
  const rowHasInk = (y: number) => {
    for (let x = 0; x < width; x++) if (ink(x, y)) return true;
    return false;
  };
  const lines: TextLine[] = [];
  for (let y = 0; y < height; ) {
    if (!rowHasInk(y)) {
      y++;
      continue;
    }
    const top = y;
    while (y < height && rowHasInk(y)) y++;
    const bandHeight = y - top;
    if (bandHeight % GLYPH_HEIGHT !== 0) continue;
    const scale = bandHeight / GLYPH_HEIGHT;
    let left = width;
    let right = -1;
    for (let row = top; row < y; row++) {
      for (let x = 0; x < width; x++) {
        if (!ink(x, row)) continue;
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
    const cell = (origin: number, column: number, row: number) =>
      ink(
        Math.min(width - 1, origin + column * scale + Math.floor(scale / 2)),
        top + row * scale + Math.floor(scale / 2),
      );
    // The first glyph may start with blank columns (I, J, 1): try each offset of the grid.
    for (let shift = 0; shift < GLYPH_WIDTH; shift++) {
      const origin = left - shift * scale;
      if (origin < 0) continue;
      const count = Math.ceil((right + 1 - origin) / (GLYPH_ADVANCE * scale));
      let text = "";
      for (let index = 0; index < count; index++) {
        const rows: string[] = [];
        for (let row = 0; row < GLYPH_HEIGHT; row++) {
          let line = "";
          for (let column = 0; column < GLYPH_WIDTH; column++) {
            line += cell(origin, index * GLYPH_ADVANCE + column, row) ? "#" : ".";
          }
          rows.push(line);
        }
        const character = BY_PATTERN.get(rows.join(""));
        if (character === undefined) {
          text = "";
          break;
        }
        text += character;
      }
      if (text.trim() !== "") {
        lines.push({ text: text.trim(), height: bandHeight });
        break;
      }
    }
  }
  return lines;
}
