import type { SecretPolicy } from "@task-context/core";
import type { Context, Hono, MiddlewareHandler } from "hono";
import { type Audience, documented, type OperationDescription } from "../contract/openapi.ts";
import { DeliveryError, runNotFound } from "../delivery/delivery-error.ts";
import type { DeliveryStore } from "../delivery/delivery-store.ts";
import {
  bearerToken,
  type Caller,
  requireAdmin,
  requireAgent,
  requireRunAccess,
} from "../http/auth.ts";
import type { StreamTiming } from "../http/event-stream.ts";
import { requireUtf8Url } from "../http/url-text.ts";
import type { ViewTokens } from "../page/view-token.ts";

/** The Hono environment of the app: the authenticated caller of a request. */
export type AppEnv = { Variables: { caller: Caller } };

/** The app as route modules see it. */
export type App = Hono<AppEnv>;

/** How the app registers A2A agents (createApp's `a2a` option). */
export interface A2aOptions {
  /** Reads agent cards (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** Told when an A2A agent was added to a run. */
  agentAdded?: (runId: string) => void;
  /**
   * Whether the service's dispatcher follows an A2A task on its stream when the card offers one
   * (default true, as `A2aDispatcher` does); false where it only polls tasks/get (a Durable
   * Object's alarm). The registration answer's `streaming` says what it will do.
   */
  streaming?: boolean;
}

/** What the routes share. */
export interface RouteContext {
  store: DeliveryStore;
  authenticate: (c: Context) => Promise<Caller>;
  timing: StreamTiming;
  /** Aborts when the server stops: long polls answer, streams end. */
  shutdown: AbortSignal | undefined;
  /** What happens to secrets in a new run's goal, constraints and stage contexts. */
  secrets: SecretPolicy;
  /** Signs and checks view links' tokens. */
  viewTokens: ViewTokens;
  /** Registering A2A agents: how their cards are read, who is told of a new one. */
  a2a: A2aOptions;
}

/**
 * The viewer of a view link's token for `runId`: 401 `UNAUTHORIZED` for a token that is
 * malformed, forged or expired; 404 `RUN_NOT_FOUND` for a genuine token of another run, the
 * answer a token gets for any run it cannot see.
 */
export async function viewerOf(
  context: RouteContext,
  token: string,
  runId: string,
): Promise<Extract<Caller, { role: "viewer" }>> {
  const checked = await context.viewTokens.verify(
    token,
    runId,
    Math.floor(context.timing.clock() / 1000),
  );
  if ("grant" in checked) {
    return { role: "viewer", runId, canRequeue: checked.grant.canRequeue };
  }
  if (checked.problem === "other-run") throw runNotFound(runId);
  throw new DeliveryError({
    code: "UNAUTHORIZED",
    message:
      checked.problem === "expired"
        ? "This view link has expired. Ask for a new one: task-context run view <run-id> (or POST /v1/runs/{run_id}/view-links)."
        : "The view token is not valid. Use the whole link as task-context run view printed it.",
  });
}

/** The caller a route of `audience` is given, checked once, by its {@link endpoint}. */
export type CallerOf<A extends Audience> = A extends "admin"
  ? Extract<Caller, { role: "admin" }>
  : A extends "agent"
    ? Extract<Caller, { role: "agent" }>
    : Caller;

/**
 * What a route of `audience` adds to the app's environment: `c.var.caller`, the checked caller
 * (none for a public route).
 */
export type AudienceEnv<A extends Audience> = A extends "public"
  ? AppEnv
  : { Variables: { caller: CallerOf<A> } };

/**
 * The caller if it belongs to `audience`, the one place a route's role is checked: 403
 * `FORBIDDEN` for an agent on an admin route and for the admin (or a viewer) on an agent's.
 */
function admit<A extends Exclude<Audience, "public">>(caller: Caller, audience: A): CallerOf<A> {
  if (audience === "admin") requireAdmin(caller);
  if (audience === "agent") requireAgent(caller);
  return caller as CallerOf<A>;
}

/**
 * Authenticates the request and checks that its caller may use the route: its own run only (a
 * `run_id` in the path of another run is "not found"), then the audience's role.
 */
function authorize(
  context: RouteContext,
  audience: Exclude<Audience, "public">,
  viewLinks: boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const runId = c.req.param("run_id");
    const view = c.req.query("view");
    const caller =
      viewLinks && runId !== undefined && view !== undefined && bearerToken(c) === undefined
        ? await viewerOf(context, view, runId)
        : await context.authenticate(c);
    if (runId !== undefined) requireRunAccess(caller, runId);
    c.set("caller", admit(caller, audience));
    await next();
  };
}

/**
 * One endpoint's documentation and access rule in one middleware: the OpenAPI document reads
 * the operation from it, and it lets through only the callers of its audience, and only with a
 * path and query string that are percent-encoded UTF-8. The route's handler finds the caller,
 * typed by the audience, in `c.var.caller` (an agent route reads its run and agent there): the
 * role is checked here and nowhere else.
 */
export function endpoint<const A extends Audience>(
  context: RouteContext,
  description: OperationDescription & { audience: A },
): MiddlewareHandler<AudienceEnv<A>> {
  const { audience } = description;
  const authorized: MiddlewareHandler<AppEnv> =
    audience === "public"
      ? async (_c, next) => next()
      : authorize(context, audience as Exclude<Audience, "public">, description.viewLinks === true);
  const check: MiddlewareHandler<AppEnv> = (c, next) =>
    authorized(c, async () => {
      requireUtf8Url(c);
      await next();
    });
  return documented(check as unknown as MiddlewareHandler<AudienceEnv<A>>, description);
}
