// The screenshot the demo ships (assets/launch-screenshot.png), drawn in code so that it can be
// drawn again and checked: the wordmark large, the release's line small, on the brand's teal.
import { encodePng } from "./png.ts";
import { blankImage, drawText, textWidth } from "./render-text.ts";

/** The large text on the screenshot: the product's wordmark. */
export const SCREENSHOT_WORDMARK = "LUMEN";
/** The small line beneath it. */
export const SCREENSHOT_TAGLINE = "THREADS FOR EVERY VAULT";

/** Renders the launch screenshot as PNG bytes (the same bytes every time). */
export function renderLaunchScreenshot(): Uint8Array {
  const width = 320;
  const image = blankImage(width, 140, "#0F4C5C");
  const large = 8;
  const small = 2;
  drawText(image, SCREENSHOT_WORDMARK, {
    x: Math.floor((width - textWidth(SCREENSHOT_WORDMARK, large)) / 2),
    y: 28,
    scale: large,
    colour: "#FAF7F2",
  });
  drawText(image, SCREENSHOT_TAGLINE, {
    x: Math.floor((width - textWidth(SCREENSHOT_TAGLINE, small)) / 2),
    y: 100,
    scale: small,
    colour: "#9CC9D3",
  });
  return encodePng(image);
}
