import { ArgumentError, type SecretPolicy } from "@task-context/core";
import {
  requireObject,
  requireSecretPolicy,
  requireText,
  requireWholeNumber,
} from "@task-context/core/internal";
import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import { type PushTarget, pushRoutes } from "./a2a/push-route.ts";
import { a2aServerRoutes } from "./a2a-server/a2a-server-routes.ts";
import type { A2aServerOptions } from "./a2a-server/client-tokens.ts";
import { isDutyStore, startTimerDuties } from "./background/timer-duties.ts";
import { DeliveryError } from "./delivery/delivery-error.ts";
import type { DeliveryStore } from "./delivery/delivery-store.ts";
import type { A2aOptions, ServiceContext } from "./execution/service-context.ts";
import { requireHostNames } from "./http/allowed-hosts.ts";
import type { App, AppEnv } from "./http/app-env.ts";
import { type AuthOptions, createAuthenticator } from "./http/auth.ts";
import { requestBodyLimit } from "./http/body-limit.ts";
import { errorResponse, toDeliveryError } from "./http/error-response.ts";
import { operationRoutes } from "./http/operation-routes.ts";
import {
  defaultRateLimit,
  memoryRateLimiter,
  type RateLimit,
  type RateLimiterFactory,
} from "./http/rate-limit.ts";
import { rateLimitRequests } from "./http/rate-limit-middleware.ts";
import { RunFeeds } from "./http/run-feeds.ts";
import { serviceSecureHeaders } from "./http/secure-headers.ts";
import { continueRequestTrace } from "./http/trace-context.ts";
import { mcpRoutes } from "./mcp/mcp-route.ts";
import { viewTokens } from "./page/view-token.ts";

/** Limits of the service; each has a default. */
export interface Limits {
  /** The largest request body, in bytes (default 1 MiB); larger ones get 413 before any handler. */
  bodyBytes?: number;
  /** Requests per window per token and per address (default 1200 per minute); `false`: none. */
  rateLimit?: RateLimit | false;
  /** The event stream sends a keep-alive comment at least this often (default 15 000 ms). */
  keepAliveMs?: number;
  /**
   * The safety recheck (default 30 000 ms): a long poll or an event stream is woken by its run's
   * changes themselves, and looks at the run on its own at least this often in case a wake-up
   * was lost (a notification from another instance that never came).
   */
  recheckMs?: number;
}

/** What {@link createApp} is built from. */
export interface AppOptions {
  /** Where runs live: an `SqlStore`, or a store that forwards to each run's own storage. */
  store: DeliveryStore;
  /** The admin token. */
  auth: AuthOptions;
  limits?: Limits;
  /**
   * Milliseconds since the epoch (default `Date.now`): rate-limit windows, long-poll deadlines
   * and keep-alives. Give the store the same clock.
   */
  clock?: () => number;
  /** Origins allowed to call the API from a browser; CORS is off without it. */
  cors?: { origins: readonly string[] };
  /**
   * Host names (no scheme or port) that requests to `/mcp` may be addressed to, against DNS
   * rebinding: another `Host` gets 403 `HOST_NOT_ALLOWED`. Default: any (on Workers the platform
   * routes by host); the Node entry defaults to loopback names. Browser pages may call `/mcp` from
   * these hosts and from the `cors` origins only.
   */
  allowedHosts?: readonly string[];
  /** The client's address, for the per-address rate limit (the runtime knows it). */
  clientAddress?: (c: Context) => string | undefined;
  /**
   * Where requests are counted against `limits.rateLimit` (default: in this process's memory).
   * Workers count an agent token in its run's Durable Object.
   */
  rateLimiter?: RateLimiterFactory;
  /** Aborts when the server stops: long polls answer at once and event streams end. */
  signal?: AbortSignal;
  /**
   * Whether the event streams of a run share one reader in this app (default true). The Workers
   * router sets false: there, a request may not do I/O for another, so each stream reads its run
   * itself (see `RunFeeds`).
   */
  sharedEventReaders?: boolean;
  /** Told about every error that became a 500 (the answer never carries it), and of the lease-expiry duty's. */
  onUnexpectedError?: (error: unknown) => void;
  /**
   * Whether the app wakes each run at its next lease expiry on a timer in this process (default
   * true, for a store that reports its changes: `SqlStore`, `PostgresStore`): the expiry's events
   * wake the run's long polls and streams; stopped when `signal` aborts. The Node server sets
   * false and runs the same duty with its sweep and A2A loops; on Workers each run's Durable
   * Object has its alarm.
   */
  backgroundDuties?: boolean;
  /**
   * What happens to secrets (API keys, tokens, private keys, passwords in URLs, …) in a new run's
   * goal, constraints and stage contexts, which every agent of the run receives: `"redact"` (the
   * default) stores `[redacted: <kind>]` in their place and answers with a `warning`, `"refuse"`
   * answers 422 `SECRET_IN_CONTEXT`, `"allow"` stores them as sent.
   */
  secrets?: SecretPolicy;
  /**
   * A2A agents. Registering one (`POST /v1/runs/{run_id}/agents` with `a2a`) reads its agent
   * card with `fetch` (default: the global one); `agentAdded` is then told the run's id, so that
   * a dispatcher starts delivering to it (the Node server's does; see `A2aDispatcher`).
   */
  a2a?: A2aOptions;
  /**
   * Where A2A agents' push notifications go (`POST /v1/a2a/push/{run_id}/{work_item_id}/{attempt}`,
   * authenticated by each attempt's push token, not a service token); without it, that path is 404.
   */
  a2aPush?: PushTarget;
  /**
   * The service as an A2A agent (its card at `/.well-known/agent-card.json`, JSON-RPC at
   * `/a2a`): the admin token may use it, and so may each of `clientTokens`, scoped to the runs
   * it creates there (see docs/a2a.md).
   */
  a2aServer?: A2aServerOptions;
}

/** The default safety recheck of long polls and event streams: 30 s. */
export const defaultRecheckMs = 30_000;

/** The default largest request body: 1 MiB. */
export const defaultBodyBytes = 1024 * 1024;

/**
 * The delivery service as a Hono app: the HTTP contract over a {@link DeliveryStore}. It knows no
 * runtime; `src/node.ts` serves it on Node with SQLite, `src/workers.ts` on Workers.
 *
 * @example
 * ```ts
 * const store = new SqlStore(openNodeDatabase(":memory:")); // Node; a Durable Object's on Workers
 * const app = createApp({ store, auth: { adminToken: "a long random secret" } });
 * const health = await app.request("/healthz"); // 200 { "status": "ok" }
 * ```
 */
export function createApp(options: AppOptions): App {
  requireObject("options", options);
  requireObject("options.store", options.store);
  requireObject("options.auth", options.auth);
  requireText("options.auth.adminToken", options.auth.adminToken);
  const { limits = {}, clock = Date.now, store } = options;
  const bodyBytes = requireWholeNumber(
    "options.limits.bodyBytes",
    limits.bodyBytes ?? defaultBodyBytes,
    1,
  );
  const timing = {
    keepAliveMs: requireWholeNumber("options.limits.keepAliveMs", limits.keepAliveMs ?? 15_000, 1),
    recheckMs: requireWholeNumber(
      "options.limits.recheckMs",
      limits.recheckMs ?? defaultRecheckMs,
      1,
    ),
    clock,
  };
  const rateLimit = limits.rateLimit ?? defaultRateLimit;
  if (rateLimit !== false) {
    requireWholeNumber("options.limits.rateLimit.requests", rateLimit.requests, 1);
    requireWholeNumber("options.limits.rateLimit.windowMs", rateLimit.windowMs, 1);
  }
  if (options.cors !== undefined && !Array.isArray(options.cors.origins)) {
    throw new ArgumentError({
      argument: "options.cors.origins",
      message: "expected an array of origins such as https://app.example.",
    });
  }

  if (options.backgroundDuties !== false && isDutyStore(store)) {
    const duties = startTimerDuties({
      store,
      clock,
      onError: (error) => options.onUnexpectedError?.(error),
    });
    options.signal?.addEventListener("abort", () => duties.close(), { once: true });
  }

  const app: App = new Hono<AppEnv>();
  app.onError((error, c) => {
    const failure = toDeliveryError(error);
    if (failure.code === "INTERNAL_ERROR") options.onUnexpectedError?.(error);
    return errorResponse(c, failure);
  });

  app.use("*", serviceSecureHeaders);
  // A `traceparent` header: the request's spans (claims, completions) continue the caller's trace.
  app.use("*", continueRequestTrace);
  if (options.cors !== undefined) {
    app.use(
      "*",
      cors({
        origin: [...options.cors.origins],
        // MCP-Protocol-Version: what an MCP client in a browser sends to /mcp after initialize.
        allowHeaders: [
          "Authorization",
          "Content-Type",
          "Idempotency-Key",
          "Last-Event-ID",
          "MCP-Protocol-Version",
          "traceparent",
          "tracestate",
        ],
        exposeHeaders: ["Retry-After"],
      }),
    );
  }
  const authenticator = createAuthenticator(store, options.auth);
  if (rateLimit !== false) {
    const limited = (options.rateLimiter ?? memoryRateLimiter)(rateLimit, clock);
    app.use("*", rateLimitRequests(limited, authenticator, options.clientAddress));
  }
  app.use(
    "*",
    requestBodyLimit({
      maxSize: bodyBytes,
      onError: () => {
        throw new DeliveryError({
          code: "PAYLOAD_TOO_LARGE",
          message: `The request body is larger than ${bodyBytes} bytes. Send less (store large content elsewhere and reference it).`,
        });
      },
    }),
  );

  const service: ServiceContext = {
    store,
    authenticate: authenticator.authenticate,
    timing,
    shutdown: options.signal,
    bodyBytes,
    secrets: requireSecretPolicy("options.secrets", options.secrets),
    viewTokens: viewTokens(options.auth.adminToken),
    a2a: options.a2a ?? {},
    feeds: new RunFeeds(store, timing, {
      shutdown: options.signal,
      shared: options.sharedEventReaders ?? true,
    }),
  };
  // Every operation of the contract, at its method and path (spans, limits and checks in the
  // executor every entry shares).
  operationRoutes(app, service);
  if (options.a2aPush !== undefined) pushRoutes(app, options.a2aPush);
  // The service as an A2A agent: its card, and JSON-RPC at /a2a (a task is a run).
  a2aServerRoutes(app, service, options.auth.adminToken, options.a2aServer);
  const allowedHosts =
    options.allowedHosts === undefined
      ? undefined
      : requireHostNames("options.allowedHosts", options.allowedHosts);
  mcpRoutes(
    app,
    service,
    { hosts: allowedHosts, corsOrigins: options.cors?.origins ?? [] },
    options.onUnexpectedError,
  );

  const routes = app.routes
    .filter((route) => route.method !== "ALL")
    .map((route) => ({
      method: route.method,
      pattern: new RegExp(`^${route.path.replace(/:[^/]+/g, "[^/]+")}$`),
    }));
  app.notFound((c) => {
    const allowed = [
      ...new Set(routes.filter((route) => route.pattern.test(c.req.path)).map((r) => r.method)),
    ];
    if (allowed.length > 0) {
      c.header("Allow", allowed.join(", "));
      return errorResponse(
        c,
        new DeliveryError({
          code: "METHOD_NOT_ALLOWED",
          message: `${c.req.method} is not allowed on ${c.req.path}. Use ${allowed.join(" or ")}.`,
        }),
      );
    }
    return errorResponse(
      c,
      new DeliveryError({
        code: "NOT_FOUND",
        message: `No endpoint ${c.req.method} ${c.req.path}. See /docs or /v1/openapi.json for the contract.`,
      }),
    );
  });
  return app;
}
