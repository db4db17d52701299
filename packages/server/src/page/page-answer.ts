// What the run page's operations share: who may see the page (the admin, or a view link's
// holder), and its answers — a page with its Content-Security-Policy, or an error as a page.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { ServiceContext } from "../execution/service-context.ts";
import { bearerToken } from "../http/auth.ts";
import { toDeliveryError } from "../http/error-response.ts";
import { requireUtf8Url } from "../http/url-text.ts";
import { viewerOf } from "../http/view-link-caller.ts";
import { renderErrorPage } from "./error-page.ts";
import type { PageAccess } from "./items.ts";
import { pageCsp } from "./layout.ts";
import type { Markup } from "./markup.ts";
import { DEFAULT_VIEW_TTL_SECONDS } from "./view-token.ts";

/**
 * Who may see the page, and the view token its forms and script send (see {@link pageCaller}),
 * for a path and query string that are percent-encoded UTF-8.
 */
export async function pageAccess(
  c: Context,
  service: ServiceContext,
  runId: string,
  formToken: string | undefined,
): Promise<PageAccess & { admin: boolean }> {
  const access = await pageCaller(c, service, runId, formToken);
  requireUtf8Url(c);
  return access;
}

/**
 * Who may see the page, and the view token its forms and script send: the admin (bearer token;
 * the page gets a fresh one-hour token with requeue rights) or a view link's holder.
 */
async function pageCaller(
  c: Context,
  service: ServiceContext,
  runId: string,
  formToken: string | undefined,
): Promise<PageAccess & { admin: boolean }> {
  if (bearerToken(c) !== undefined) {
    const caller = await service.authenticate(c);
    if (caller.role !== "admin") {
      throw new DeliveryError({
        code: "UNAUTHORIZED",
        message:
          "The run page takes the admin token or a view link, not an agent token. Ask for a link: task-context run view <run-id>.",
      });
    }
    const expiresAt = Math.floor(service.timing.clock() / 1000) + DEFAULT_VIEW_TTL_SECONDS;
    const viewToken = await service.viewTokens.sign({ runId, expiresAt, canRequeue: true });
    return { runId, viewToken, canRequeue: true, admin: true };
  }
  const view = formToken ?? c.req.query("view");
  if (view === undefined || view === "") {
    throw new DeliveryError({
      code: "UNAUTHORIZED",
      message:
        "This page needs a view link (…/runs/{run_id}?view=…) or the admin token. Print a link with: task-context run view <run-id>.",
    });
  }
  const viewer = await viewerOf(service, view, runId);
  return { runId, viewToken: view, canRequeue: viewer.canRequeue, admin: false };
}

/** Whether the client asked for JSON rather than a page (an API client, not a browser). */
function wantsJson(c: Context): boolean {
  const accept = c.req.header("Accept") ?? "";
  return accept.includes("application/json") && !/text\/html|\*\/\*/.test(accept);
}

/** `page` as the answer, with its Content-Security-Policy (the nonce of its script). */
export function sendPage(
  c: Context,
  page: Markup,
  status: ContentfulStatusCode,
  nonce: string,
): Response {
  c.header("Content-Security-Policy", pageCsp(nonce));
  c.header("Cache-Control", "no-store");
  return c.body(page.toString(), status, { "Content-Type": "text/html; charset=utf-8" });
}

/**
 * Renders `failure` as an error page for a browser (401, 403, 404, 409), or rethrows it: an
 * unexpected failure, or a client that wants JSON, gets the JSON error of every endpoint.
 */
export function errorPage(c: Context, failure: unknown, nonce: string, back?: string): Response {
  const error = toDeliveryError(failure);
  if (
    error.code === "INTERNAL_ERROR" ||
    wantsJson(c) ||
    ![401, 403, 404, 409].includes(error.status)
  ) {
    throw failure;
  }
  if (error.status === 401) c.header("WWW-Authenticate", 'Bearer realm="task-context"');
  return sendPage(
    c,
    renderErrorPage(error, nonce, back),
    error.status as ContentfulStatusCode,
    nonce,
  );
}
