import { requireText } from "@task-context/core/internal";
import { createApp, type Limits } from "../app.ts";
import { parseAllowedHosts } from "../http/allowed-hosts.ts";
import { parseCorsOrigins } from "../http/cors-origins.ts";
import { parseRateLimit } from "../http/rate-limit.ts";
import { parseSecretPolicy } from "../http/run-secrets.ts";
import type { App } from "../routes/route-context.ts";
import { clientAddress } from "./client-address.ts";
import { DurableObjectStore } from "./durable-object-store.ts";
import type { WorkerEnv } from "./worker-env.ts";
import { workersRateLimiter } from "./workers-rate-limiter.ts";

/** What {@link createRouter} takes besides the Worker's env; tests set these. */
export interface RouterOptions {
  /** Default: a {@link DurableObjectStore} over `env.RUNS`. */
  store?: DurableObjectStore;
  /** Default: `Date.now`. The run objects keep their own clock. */
  clock?: () => number;
  /** Over the limits the env sets. */
  limits?: Limits;
}

/**
 * The router Worker's app: `createApp` over the runs' Durable Objects, configured by the
 * Worker's variables. Long polls and streams look at their run every 5 s (the objects' alarms
 * turn every lease expiry into an event that wakes them sooner). Throws an `ArgumentError` naming
 * the variable when the configuration is wrong.
 */
export function createRouter(env: WorkerEnv, options: RouterOptions = {}): App {
  const adminToken = requireText("TASK_CONTEXT_ADMIN_TOKEN", env.TASK_CONTEXT_ADMIN_TOKEN);
  const store = options.store ?? new DurableObjectStore(env.RUNS);
  const cors = parseCorsOrigins(env.TASK_CONTEXT_CORS_ORIGINS);
  const allowedHosts = parseAllowedHosts(env.TASK_CONTEXT_ALLOWED_HOSTS);
  return createApp({
    store,
    auth: { adminToken },
    limits: {
      rateLimit: parseRateLimit(env.TASK_CONTEXT_RATE_LIMIT),
      recheckMs: 5000,
      ...options.limits,
    },
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    clientAddress: (c) => clientAddress(c.req.header("CF-Connecting-IP")),
    ...(cors === undefined ? {} : { cors }),
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
    rateLimiter: workersRateLimiter(store, env.ADDRESS_RATE_LIMITER),
    secrets: parseSecretPolicy("TASK_CONTEXT_SECRETS", env.TASK_CONTEXT_SECRETS),
    onUnexpectedError: (error) => console.error("unexpected error:", error),
  });
}
