import type { ServiceEnv } from "../settings.ts";
import type { RunDirectory } from "./run-directory.ts";
import type { RunObject } from "./run-object.ts";

/**
 * The bindings and variables of the Worker (wrangler.jsonc): the variables of every runtime
 * ({@link ServiceEnv}; `TASK_CONTEXT_ADMIN_TOKEN` is required, and a secret), and its bindings.
 * Variables set with `--var` or as secrets are not in the configuration file, so they are
 * declared here rather than generated.
 */
export interface WorkerEnv extends ServiceEnv {
  /** One Durable Object per run, SQLite storage: `idFromName(runId)`. */
  RUNS: DurableObjectNamespace<RunObject>;
  /**
   * The runs directory: one Durable Object (SQLite storage) that lists every run, for
   * `GET /v1/runs`. Without it everything else works, and `GET /v1/runs` answers 503 naming it.
   */
  RUN_DIRECTORY?: DurableObjectNamespace<RunDirectory>;
  /**
   * Counts requests per client address (and for the admin token) across the isolates of a
   * Cloudflare location. Without it they are counted in each isolate's memory.
   */
  ADDRESS_RATE_LIMITER?: RateLimit;
  /**
   * The service's address as A2A agents reach it (`https://…`): with it, an agent whose card
   * offers push notifications pushes its tasks' updates to the run's object through the
   * webhook under it, instead of the object polling them from its alarm. Without it, polled.
   */
  TASK_CONTEXT_PUBLIC_URL?: string;
}
