import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { selfReviewWarnings } from "../a2a/self-review.ts";
import { operation } from "../contract/openapi.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { bearerToken } from "../http/auth.ts";
import { toDeliveryError } from "../http/error-response.ts";
import { requireUtf8Url } from "../http/url-text.ts";
import { renderErrorPage } from "../page/error-page.ts";
import type { PageAccess } from "../page/items.ts";
import { newNonce, pageCsp } from "../page/layout.ts";
import type { Markup } from "../page/markup.ts";
import { renderRunPage } from "../page/run-page.ts";
import { DEFAULT_VIEW_TTL_SECONDS } from "../page/view-token.ts";
import { type App, type RouteContext, viewerOf } from "./route-context.ts";

/** The most events the page renders; earlier ones are a JSON request away. */
const PAGE_EVENTS = 500;

const htmlPage = (description: string) => ({
  description,
  content: { "text/html": { schema: { type: "string" } } },
});

/**
 * Who may see the page, and the view token its forms and script send (see {@link pageCaller}),
 * for a path and query string that are percent-encoded UTF-8.
 */
async function pageAccess(
  c: Context,
  context: RouteContext,
  runId: string,
  formToken: string | undefined,
): Promise<PageAccess & { admin: boolean }> {
  const access = await pageCaller(c, context, runId, formToken);
  requireUtf8Url(c);
  return access;
}

/**
 * Who may see the page, and the view token its forms and script send: the admin (bearer token;
 * the page gets a fresh one-hour token with requeue rights) or a view link's holder.
 */
async function pageCaller(
  c: Context,
  context: RouteContext,
  runId: string,
  formToken: string | undefined,
): Promise<PageAccess & { admin: boolean }> {
  if (bearerToken(c) !== undefined) {
    const caller = await context.authenticate(c);
    if (caller.role !== "admin") {
      throw new DeliveryError({
        code: "UNAUTHORIZED",
        message:
          "The run page takes the admin token or a view link, not an agent token. Ask for a link: task-context run view <run-id>.",
      });
    }
    const expiresAt = Math.floor(context.timing.clock() / 1000) + DEFAULT_VIEW_TTL_SECONDS;
    const viewToken = await context.viewTokens.sign({ runId, expiresAt, canRequeue: true });
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
  const viewer = await viewerOf(context, view, runId);
  return { runId, viewToken: view, canRequeue: viewer.canRequeue, admin: false };
}

/** Whether the client asked for JSON rather than a page (an API client, not a browser). */
function wantsJson(c: Context): boolean {
  const accept = c.req.header("Accept") ?? "";
  return accept.includes("application/json") && !/text\/html|\*\/\*/.test(accept);
}

function send(c: Context, page: Markup, status: ContentfulStatusCode, nonce: string): Response {
  c.header("Content-Security-Policy", pageCsp(nonce));
  c.header("Cache-Control", "no-store");
  return c.body(page.toString(), status, { "Content-Type": "text/html; charset=utf-8" });
}

/**
 * Renders `failure` as an error page for a browser (401, 403, 404, 409), or rethrows it: an
 * unexpected failure, or a client that wants JSON, gets the JSON error of every endpoint.
 */
function errorPage(c: Context, failure: unknown, nonce: string, back?: string): Response {
  const error = toDeliveryError(failure);
  if (
    error.code === "INTERNAL_ERROR" ||
    wantsJson(c) ||
    ![401, 403, 404, 409].includes(error.status)
  ) {
    throw failure;
  }
  if (error.status === 401) c.header("WWW-Authenticate", 'Bearer realm="task-context"');
  return send(c, renderErrorPage(error, nonce, back), error.status as ContentfulStatusCode, nonce);
}

/** The run page and its Requeue form: HTML for a browser, rendered on the server. */
export function pageRoutes(app: App, context: RouteContext): void {
  const { store } = context;

  app.get(
    "/runs/:run_id",
    operation({
      id: "runPage",
      summary: "The run page: what every agent received and did, live",
      description:
        "An HTML page, complete without JavaScript: the goal, constraints and status; the stages with their item counts; every work item with its state, attempt, holder, lease and context hash (dead letters with their history and, with requeue rights, a Requeue form); every artifact as escaped text with its reviews beside it; the events, which a small inline script keeps live over the event stream. Open it with `Authorization: Bearer <admin token>` or a view link's `?view=` token. Sent with a strict Content-Security-Policy (a per-response nonce; no other script). Errors are HTML pages too, or JSON when Accept asks for JSON only.",
      tag: "pages",
      audience: "admin or view link",
      htmlPages: true,
      responses: { 200: htmlPage("The page") },
      errors: ["RUN_NOT_FOUND"],
    }),
    async (c) => {
      const runId = c.req.param("run_id");
      const nonce = newNonce();
      try {
        const access = await pageAccess(c, context, runId, undefined);
        // Events first: the overview read after them is at least as new, and the script's
        // stream replays anything in between.
        const lastSeq = await store.lastSeq(runId);
        const skipped = Math.max(0, lastSeq - PAGE_EVENTS);
        const { events } = await store.events(runId, skipped, PAGE_EVENTS);
        const overview = await store.overview(runId);
        const warnings = selfReviewWarnings(overview.run.stages, await store.a2aAgents(runId));
        const page = renderRunPage({
          warnings,
          overview,
          events,
          skippedEvents: skipped,
          access,
          nonce,
          nowMs: context.timing.clock(),
        });
        return send(c, page, 200, nonce);
      } catch (failure) {
        return errorPage(c, failure, nonce);
      }
    },
  );

  app.post(
    "/runs/:run_id/work-items/:id/requeue",
    operation({
      id: "requeueFromPage",
      summary: "The run page's Requeue form: put a dead letter back on offer",
      description:
        "What the page's Requeue button posts (`application/x-www-form-urlencoded`, the view token in the field `view`, or `?view=`, or the admin token): requeues the item like `POST /v1/runs/{run_id}/work-items/{id}/requeue` and answers 303 back to the page. A view link without requeue rights gets 403.",
      tag: "pages",
      audience: "admin or view link",
      htmlPages: true,
      requestBody: {
        required: false,
        content: {
          "application/x-www-form-urlencoded": {
            schema: {
              type: "object",
              properties: { view: { type: "string", description: "The page's view token" } },
            },
          },
        },
      },
      responses: {
        303: {
          description: "Requeued: back to the page, at the item's row",
          headers: {
            Location: {
              required: true,
              description: "The run page",
              schema: { type: "string" },
            },
          },
        },
      },
      errors: [
        "FORBIDDEN",
        "RUN_NOT_FOUND",
        "WORK_ITEM_NOT_FOUND",
        "NOT_DEAD_LETTERED",
        "PAYLOAD_TOO_LARGE",
      ],
    }),
    async (c) => {
      const runId = c.req.param("run_id");
      const workItemId = c.req.param("id");
      const nonce = newNonce();
      let back: string | undefined;
      try {
        const form = (c.req.header("Content-Type") ?? "").startsWith(
          "application/x-www-form-urlencoded",
        )
          ? await c.req.parseBody()
          : {};
        const field = typeof form.view === "string" && form.view !== "" ? form.view : undefined;
        const access = await pageAccess(c, context, runId, field);
        const page = `/runs/${encodeURIComponent(runId)}`;
        back = access.admin ? page : `${page}?view=${encodeURIComponent(access.viewToken)}`;
        if (!access.canRequeue) {
          throw new DeliveryError({
            code: "FORBIDDEN",
            message:
              "This view link may not requeue. Ask for one that may: task-context run view <run-id> --can-requeue.",
          });
        }
        await store.requeue(runId, workItemId);
        return c.redirect(`${back}#item-${encodeURIComponent(workItemId)}`, 303);
      } catch (failure) {
        return errorPage(c, failure, nonce, back);
      }
    },
  );
}
