import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GLYPHS } from "./glyphs.ts";
import { renderLaunchScreenshot } from "./launch-screenshot.ts";
import { decodePng, encodePng } from "./png.ts";
import { readText } from "./read-text.ts";
import { blankImage, drawText, textWidth } from "./render-text.ts";

const characters = Object.keys(GLYPHS).filter((character) => character !== " ");

describe("the pixel font", () => {
  it("reads back any line it draws, at any scale, through a PNG round trip", () => {
    fc.assert(
      fc.property(
        // A line's height is found from its glyphs: at least one must span all 7 rows (not ".").
        fc
          .array(fc.constantFrom(...characters), { minLength: 1, maxLength: 12 })
          .filter((letters) => letters.some((letter) => letter !== ".")),
        fc.integer({ min: 1, max: 5 }),
        // The top-left pixel is the background: a margin of at least one pixel.
        fc.integer({ min: 1, max: 9 }),
        (letters, scale, margin) => {
          const text = letters.join("");
          const image = blankImage(
            textWidth(text, scale) + 2 * margin + 1,
            7 * scale + 2 * margin + 1,
            "#0F4C5C",
          );
          drawText(image, text, { x: margin, y: margin, scale, colour: "#FAF7F2" });
          const decoded = decodePng(encodePng(image));
          expect(decoded).toEqual(image);
          expect(readText(decoded as NonNullable<typeof decoded>)).toEqual([
            { text, height: 7 * scale },
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("ships the screenshot it renders, byte for byte", async () => {
    const shipped = await readFile(join(import.meta.dirname, "../../assets/launch-screenshot.png"));
    expect(Buffer.from(renderLaunchScreenshot()).equals(shipped)).toBe(true);
    expect(readText(decodePng(shipped) as NonNullable<ReturnType<typeof decodePng>>)).toEqual([
      { text: "LUMEN", height: 56 },
      { text: "THREADS FOR EVERY VAULT", height: 14 },
    ]);
  });

  it("decodes nothing that is not an 8-bit RGB or RGBA PNG", () => {
    expect(decodePng(new Uint8Array([0xff, 0xd8, 0xff]))).toBeUndefined();
    expect(decodePng(new Uint8Array(0))).toBeUndefined();
  });
});
