import { encodePng } from "../image/png.ts";
import { blankImage, type HexColour, parseHexColour } from "../image/render-text.ts";
import { hexColours } from "./compose-answer.ts";

/** The stand-in image model's defaults, when the prompt names no colours: grey and pure black. */
const DEFAULT_COLOURS: [HexColour, HexColour] = ["#808080", "#000000"];

/** Width and height of the stand-in's images. */
export const GENERATED_SIZE = { width: 256, height: 144 } as const;

/**
 * What the stand-in image model draws for a prompt: a background in the first colour the prompt
 * (its task context included) names and a band in the second — grey and pure black when it
 * names none. The colours in the PNG show which prompt arrived.
 */
export function drawImage(prompt: string): { png: Uint8Array; colours: [HexColour, HexColour] } {
  const named = hexColours(prompt) as HexColour[];
  const colours: [HexColour, HexColour] = [
    named[0] ?? DEFAULT_COLOURS[0],
    named[1] ?? DEFAULT_COLOURS[1],
  ];
  const image = blankImage(GENERATED_SIZE.width, GENERATED_SIZE.height, colours[0]);
  const band = parseHexColour(colours[1]);
  for (let y = 96; y < 112; y++) {
    for (let x = 24; x < GENERATED_SIZE.width - 24; x++) {
      image.pixels.set(band, (y * GENERATED_SIZE.width + x) * 3);
    }
  }
  return { png: encodePng(image), colours };
}
