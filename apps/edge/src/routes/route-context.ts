import type { SecretPolicy } from "@task-context/core";
import type { Context, Hono, MiddlewareHandler } from "hono";
import { uniqueSymbol } from "hono-openapi";
import { type Audience, operation } from "../contract/openapi.ts";
import type { DeliveryStore } from "../delivery/delivery-store.ts";
import { type Caller, requireAdmin, requireAgent, requireRunAccess } from "../http/auth.ts";
import type { StreamTiming } from "../http/event-stream.ts";

/** The Hono environment of the app: the authenticated caller of a request. */
export type AppEnv = { Variables: { caller: Caller } };

/** The app as route modules see it. */
export type App = Hono<AppEnv>;

/** What the routes share. */
export interface RouteContext {
  store: DeliveryStore;
  authenticate: (c: Context) => Promise<Caller>;
  timing: StreamTiming;
  /** Aborts when the server stops: long polls answer, streams end. */
  shutdown: AbortSignal | undefined;
  /** What happens to secrets in a new run's goal, constraints and stage contexts. */
  secrets: SecretPolicy;
}

/**
 * Authenticates the request and checks that its caller may use the route: its own run only (a
 * `run_id` in the path of another run is "not found"), then the audience's role.
 */
function authorize(
  context: RouteContext,
  audience: Exclude<Audience, "public">,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = await context.authenticate(c);
    const runId = c.req.param("run_id");
    if (runId !== undefined) requireRunAccess(caller, runId);
    if (audience === "admin") requireAdmin(caller);
    if (audience === "agent") requireAgent(caller);
    c.set("caller", caller);
    await next();
  };
}

/**
 * One endpoint's documentation and access rule in one middleware: the OpenAPI document reads
 * the operation from it, and it lets through only the callers of its audience.
 */
export function endpoint(
  context: RouteContext,
  description: Parameters<typeof operation>[0],
): MiddlewareHandler<AppEnv> {
  const documented = operation(description) as unknown as Record<typeof uniqueSymbol, unknown>;
  const { audience } = description;
  const check: MiddlewareHandler<AppEnv> =
    audience === "public" ? async (_c, next) => next() : authorize(context, audience);
  return Object.assign(check, { [uniqueSymbol]: documented[uniqueSymbol] });
}
