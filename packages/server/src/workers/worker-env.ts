import type { RunObject } from "./run-object.ts";

/**
 * The bindings and variables of the Worker (wrangler.jsonc). Variables set with `--var` or as
 * secrets are not in the configuration file, so they are declared here rather than generated.
 */
export interface WorkerEnv {
  /** One Durable Object per run, SQLite storage: `idFromName(runId)`. */
  RUNS: DurableObjectNamespace<RunObject>;
  /**
   * Counts requests per client address (and for the admin token) across the isolates of a
   * Cloudflare location. Without it they are counted in each isolate's memory.
   */
  ADDRESS_RATE_LIMITER?: RateLimit;
  /** The admin token (a secret: `wrangler secret put TASK_CONTEXT_ADMIN_TOKEN`). */
  TASK_CONTEXT_ADMIN_TOKEN?: string;
  /** Requests per agent token, `<requests>/<seconds>` or `off` (default `1200/60`). */
  TASK_CONTEXT_RATE_LIMIT?: string;
  /** Origins allowed to call the API from a browser, comma-separated; CORS is off without it. */
  TASK_CONTEXT_CORS_ORIGINS?: string;
  /**
   * Host names /mcp answers, comma-separated (DNS-rebinding protection); without it, any host
   * the platform routes to the Worker.
   */
  TASK_CONTEXT_ALLOWED_HOSTS?: string;
  /** Secrets in a new run's goal, constraints and stages: `redact` (default), `refuse` or `allow`. */
  TASK_CONTEXT_SECRETS?: string;
}
