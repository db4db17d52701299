import { createApp, type Limits } from "../app.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { App } from "../http/app-env.ts";
import { clientAddress } from "../http/client-address.ts";
import { serviceSettingsFromEnv } from "../settings.ts";
import { DurableObjectStore } from "./durable-object-store.ts";
import { unwrap } from "./outcome.ts";
import type { WorkerEnv } from "./worker-env.ts";
import { workersRateLimiter } from "./workers-rate-limiter.ts";

/** What {@link createRouter} takes besides the Worker's env; tests set these. */
export interface RouterOptions {
  /** Default: a {@link DurableObjectStore} over `env.RUNS` and `env.RUN_DIRECTORY`. */
  store?: DurableObjectStore;
  /** Default: `Date.now`. The run objects keep their own clock. */
  clock?: () => number;
  /** Over the limits the env sets. */
  limits?: Limits;
}

/**
 * The router Worker's app: `createApp` over the runs' Durable Objects, configured by the
 * Worker's variables. Long polls and streams wait in their run's object, woken by its events (the
 * object's alarm turns every lease expiry into events), and look at their run on their own every
 * 30 s unless `TASK_CONTEXT_RECHECK_MS` says otherwise. The variables are read by `serviceSettingsFromEnv`, as on every
 * runtime, except that the admin token is never generated. Throws an `ArgumentError` naming the
 * variable when the configuration is wrong.
 */
export function createRouter(env: WorkerEnv, options: RouterOptions = {}): App {
  // The admin token is required: each isolate would generate another.
  const { adminToken, generatedAdminToken: _, limits, ...settings } = serviceSettingsFromEnv(env);
  const store = options.store ?? new DurableObjectStore(env.RUNS, env.RUN_DIRECTORY);
  return createApp({
    store,
    auth: { adminToken },
    limits: { ...limits, ...options.limits },
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    clientAddress: (c) => clientAddress(c.req.header("CF-Connecting-IP")),
    ...settings,
    rateLimiter: workersRateLimiter(store, env.ADDRESS_RATE_LIMITER),
    // A run's object follows A2A tasks from its alarm by tasks/get, never on a stream.
    a2a: { streaming: false },
    // A2A push notifications go to the run's object (its receiver checks and applies them).
    a2aPush: {
      receive: async (runId, workItemId, attempt, token, body) => {
        try {
          const outcome = await unwrap(
            store.object(runId).receivePush(runId, workItemId, attempt, token, body),
          );
          return { outcome };
        } catch (error) {
          if (!DeliveryError.isInstance(error)) throw error;
          if (error.code !== "RUN_NOT_FOUND") return { refused: error };
          const message =
            "No A2A attempt of this service waits for push notifications at this URL.";
          return { refused: new DeliveryError({ code: "NOT_FOUND", message }) };
        }
      },
    },
    // A request may not do I/O for another: each event stream reads its run itself.
    sharedEventReaders: false,
    onUnexpectedError: (error) => console.error("unexpected error:", error),
  });
}
