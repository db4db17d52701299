import type { DeliveryError } from "../delivery/delivery-error.ts";
import { layout } from "./layout.ts";
import { type Markup, markup } from "./markup.ts";

const headings: Partial<Record<number, string>> = {
  401: "This page needs a valid link",
  403: "Not allowed",
  404: "Not found",
  409: "That cannot be done now",
};

/** An error as a page for a browser: what happened and what to do, no script. */
export function renderErrorPage(error: DeliveryError, nonce: string, back?: string): Markup {
  const main = markup`<h1>${headings[error.status] ?? "Something went wrong"}</h1>
<p>${error.message}</p>
<p class="meta">Status ${error.status} · <code>${error.code}</code></p>
${back === undefined ? "" : markup`<p><a href="${back}">Back to the run</a></p>`}`;
  return layout({ title: headings[error.status] ?? "Error", nonce, main });
}
