import { type Markup, markup } from "./markup.ts";
import { pageStyle } from "./style.ts";

/** A fresh nonce for one response's inline script and style: 128 random bits, base64. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The pages' Content-Security-Policy: nothing loads but the nonce'd inline script and style,
 * scripts and the event stream reach only this origin, forms post only here, and no other page
 * may frame this one. No `unsafe-inline`, no `unsafe-eval`.
 */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** What {@link layout} wraps. */
export interface LayoutOptions {
  title: string;
  nonce: string;
  main: Markup;
  /** Attributes of `<body>` the script reads (`data-*`). */
  data?: Record<string, string>;
  script?: Markup;
}

/** The HTML document around a page: language, viewport, light and dark style, the main region. */
export function layout({ title, nonce, main, data = {}, script }: LayoutOptions): Markup {
  const attributes = Object.entries(data).map(([name, value]) => markup` data-${name}="${value}"`);
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<style nonce="${nonce}">${pageStyle}</style>
</head>
<body${attributes}>
<a class="skip" href="#main">Skip to content</a>
<main id="main">
${main}
</main>
${script === undefined ? "" : markup`<script nonce="${nonce}">${script}</script>`}
</body>
</html>
`;
}
