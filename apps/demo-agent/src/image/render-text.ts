import { GLYPH_ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, GLYPHS } from "./glyphs.ts";
import type { RgbImage } from "./png.ts";

/** An RGB colour as `#RRGGBB`. */
export type HexColour = `#${string}`;

/** `[red, green, blue]` of a `#RRGGBB` colour. */
export function parseHexColour(colour: string): [number, number, number] {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (match === null)
    throw new Error(`expected a colour as #RRGGBB, got ${JSON.stringify(colour)}`);
  return [
    Number.parseInt(match[1] as string, 16),
    Number.parseInt(match[2] as string, 16),
    Number.parseInt(match[3] as string, 16),
  ];
}

/** A blank image of one colour. */
export function blankImage(width: number, height: number, colour: HexColour): RgbImage {
  const pixels = new Uint8Array(width * height * 3);
  const rgb = parseHexColour(colour);
  for (let index = 0; index < width * height; index++) pixels.set(rgb, index * 3);
  return { width, height, pixels };
}

/** The width in pixels of `text` drawn at `scale`. */
export function textWidth(text: string, scale: number): number {
  return (text.length * GLYPH_ADVANCE - 1) * scale;
}

/** Draws `text` (capital letters, digits, space, full stop) with its top-left corner at (x, y). */
export function drawText(
  image: RgbImage,
  text: string,
  options: { x: number; y: number; scale: number; colour: HexColour },
): void {
  const rgb = parseHexColour(options.colour);
  [...text].forEach((character, index) => {
    const glyph = GLYPHS[character];
    if (glyph === undefined)
      throw new Error(`the font has no glyph for ${JSON.stringify(character)}`);
    for (let row = 0; row < GLYPH_HEIGHT; row++) {
      for (let column = 0; column < GLYPH_WIDTH; column++) {
        if (glyph[row]?.[column] !== "#") continue;
        for (let dy = 0; dy < options.scale; dy++) {
          for (let dx = 0; dx < options.scale; dx++) {
            const x = options.x + (index * GLYPH_ADVANCE + column) * options.scale + dx;
            const y = options.y + row * options.scale + dy;
            if (x < image.width && y < image.height)
              image.pixels.set(rgb, (y * image.width + x) * 3);
          }
        }
      }
    }
  });
}
