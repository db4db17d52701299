import { jsonResponse } from "../contract/openapi.ts";
import { createViewLinkBody, viewLinkCreated } from "../contract/schemas.ts";
import { jsonBody } from "../http/validation.ts";
import { DEFAULT_VIEW_TTL_SECONDS } from "../page/view-token.ts";
import { type App, endpoint, type RouteContext } from "./route-context.ts";

/** The address of a run's page with a view token, under the request's own origin. */
export function viewLinkUrl(origin: string, runId: string, token: string): string {
  return `${origin}/runs/${encodeURIComponent(runId)}?view=${encodeURIComponent(token)}`;
}

/** `POST /v1/runs/{run_id}/view-links`: short-lived links to a run's page. */
export function viewLinkRoutes(app: App, context: RouteContext): void {
  app.post(
    "/v1/runs/:run_id/view-links",
    endpoint(context, {
      id: "createViewLink",
      summary: "A short-lived link to the run's page, for a browser",
      description:
        "The link opens `GET /runs/{run_id}` without the admin token and lets the page's script follow `GET /v1/runs/{run_id}/events` (read-only, this run only) until `expires_at`. With `can_requeue`, the page's Requeue buttons work too. The token is an HMAC keyed from the admin token: nothing is stored, and changing the admin token revokes every link.",
      tag: "runs",
      audience: "admin",
      responses: { 201: jsonResponse(viewLinkCreated, "The link") },
      errors: ["INVALID_REQUEST", "RUN_NOT_FOUND", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
    }),
    jsonBody(createViewLinkBody),
    async (c) => {
      const runId = c.req.param("run_id");
      const { ttl_seconds = DEFAULT_VIEW_TTL_SECONDS, can_requeue = false } = c.req.valid("json");
      await context.store.getRun(runId); // 404 for a run that does not exist
      const expiresAt = Math.floor(context.timing.clock() / 1000) + ttl_seconds;
      const token = await context.viewTokens.sign({ runId, expiresAt, canRequeue: can_requeue });
      c.header("Cache-Control", "no-store");
      return c.json(
        {
          url: viewLinkUrl(new URL(c.req.url).origin, runId, token),
          expires_at: new Date(expiresAt * 1000).toISOString(),
          can_requeue,
        },
        201,
      );
    },
  );
}
