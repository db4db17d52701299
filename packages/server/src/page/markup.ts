import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

/** HTML whose interpolations were escaped (or were markup themselves). */
export type Markup = HtmlEscapedString;

/**
 * hono/html's `html` for synchronous markup: every interpolated string is escaped (`& < > " '`),
 * arrays are joined, `undefined`, `null` and booleans render nothing. Never interpolate a
 * Promise here: the pages are rendered in one pass.
 */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  return html(strings, ...values) as Markup;
}
