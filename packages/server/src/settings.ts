import { ArgumentError, type SecretPolicy } from "@task-context/core";
import { requireText, requireWholeNumber } from "@task-context/core/internal";
import { type A2aServerOptions, parseClientTokens } from "./a2a-server/client-tokens.ts";
import type { Limits } from "./app.ts";
import { base64url } from "./delivery/ids.ts";
import { parseAllowedHosts } from "./http/allowed-hosts.ts";
import { parseCorsOrigins } from "./http/cors-origins.ts";
import { parseRateLimit, type RateLimit } from "./http/rate-limit.ts";
import { parseSecretPolicy } from "./http/run-secrets.ts";

/**
 * The variables that configure the service on every runtime: a process's environment on Node,
 * Bun or Deno, a Worker's variables and secrets on Cloudflare. Unset and empty are the same.
 */
export interface ServiceEnv {
  /**
   * The admin token: creates runs and agents, reads every run, signs view links. Keep it secret
   * (on Workers: `wrangler secret put TASK_CONTEXT_ADMIN_TOKEN`).
   */
  TASK_CONTEXT_ADMIN_TOKEN?: string | undefined;
  /** Requests per agent token, `<requests>/<seconds>` or `off` (default `1200/60`). */
  TASK_CONTEXT_RATE_LIMIT?: string | undefined;
  /** Origins allowed to call the API from a browser, comma-separated; CORS is off without it. */
  TASK_CONTEXT_CORS_ORIGINS?: string | undefined;
  /**
   * Host names `/mcp` answers, comma-separated (DNS-rebinding protection); without it, the
   * runtime's default (on Node the loopback names, on Workers any host routed to the Worker).
   */
  TASK_CONTEXT_ALLOWED_HOSTS?: string | undefined;
  /** Secrets in a new run's goal, constraints and stages: `redact` (default), `refuse` or `allow`. */
  TASK_CONTEXT_SECRETS?: string | undefined;
  /** The largest request body in bytes (default 1048576, 1 MiB); larger ones are answered 413. */
  TASK_CONTEXT_BODY_BYTES?: string | undefined;
  /** How often, in milliseconds, an idle event stream sends a keep-alive comment (default 15000). */
  TASK_CONTEXT_KEEP_ALIVE_MS?: string | undefined;
  /**
   * How often, in milliseconds, a long poll or an event stream looks at its run even when nothing
   * woke it (default 30000): a safety net, as the run's changes wake them.
   */
  TASK_CONTEXT_RECHECK_MS?: string | undefined;
  /**
   * Tokens scoped to creating runs over A2A, comma-separated, 16+ characters each: each may send
   * messages to `/a2a` and read the tasks it created there, nothing else.
   */
  TASK_CONTEXT_A2A_TOKENS?: string | undefined;
}

/** What {@link ServiceEnv} sets: options of `createApp`, and whether the admin token was made up. */
export interface ServiceSettings {
  /** `TASK_CONTEXT_ADMIN_TOKEN`, or a new random one (see `generatedAdminToken`). */
  adminToken: string;
  /**
   * True when `TASK_CONTEXT_ADMIN_TOKEN` was unset or empty and `adminToken` is a new random one
   * (only with {@link SettingsFromEnvOptions.generateAdminToken}): print it, or nobody can use it.
   */
  generatedAdminToken: boolean;
  /**
   * `TASK_CONTEXT_RATE_LIMIT`, and `TASK_CONTEXT_BODY_BYTES`, `TASK_CONTEXT_KEEP_ALIVE_MS` and
   * `TASK_CONTEXT_RECHECK_MS` when they are set.
   */
  limits: Limits & { rateLimit: RateLimit | false };
  /** `TASK_CONTEXT_CORS_ORIGINS`; absent: CORS off. */
  cors?: { origins: string[] };
  /** `TASK_CONTEXT_ALLOWED_HOSTS`; absent: the runtime's default. */
  allowedHosts?: string[];
  /** `TASK_CONTEXT_SECRETS`. */
  secrets: SecretPolicy;
  /** `TASK_CONTEXT_A2A_TOKENS`, when set. */
  a2aServer?: A2aServerOptions;
}

/** How {@link serviceSettingsFromEnv} treats a missing admin token. */
export interface SettingsFromEnvOptions {
  /**
   * Without `TASK_CONTEXT_ADMIN_TOKEN` (unset or empty): true makes a new random one (32 bytes,
   * base64url) — right for one process that prints it; false (the default) refuses, as a Worker
   * must, whose isolates would each make another.
   */
  generateAdminToken?: boolean;
}

/**
 * The service's settings from the variables every runtime shares ({@link ServiceEnv}), each
 * parsed here and nowhere else: `TASK_CONTEXT_ADMIN_TOKEN`, `TASK_CONTEXT_RATE_LIMIT`,
 * `TASK_CONTEXT_CORS_ORIGINS`, `TASK_CONTEXT_ALLOWED_HOSTS`, `TASK_CONTEXT_SECRETS`,
 * `TASK_CONTEXT_BODY_BYTES`, `TASK_CONTEXT_KEEP_ALIVE_MS` and `TASK_CONTEXT_RECHECK_MS`. Throws an
 * `ArgumentError` naming the variable when one is missing or malformed. The Workers router
 * configures itself with it; `nodeSettingsFromEnv` of `@task-context/server/node` adds `PORT`,
 * `HOST` and `TASK_CONTEXT_DB` to it and generates a missing admin token.
 *
 * @example
 * ```ts source="../examples/app-from-env.ts#serviceSettingsFromEnv"
 * const { adminToken, generatedAdminToken, ...options } = serviceSettingsFromEnv(process.env, {
 *   generateAdminToken: true,
 * });
 * const app = createApp({ store, auth: { adminToken }, ...options });
 * if (generatedAdminToken) console.log(`admin token: ${adminToken}`);
 * ```
 */
export function serviceSettingsFromEnv(
  env: Readonly<ServiceEnv>,
  { generateAdminToken = false }: SettingsFromEnvOptions = {},
): ServiceSettings {
  const token = env.TASK_CONTEXT_ADMIN_TOKEN;
  const generated = generateAdminToken && (token === undefined || token === "");
  const adminToken = generated
    ? base64url(crypto.getRandomValues(new Uint8Array(32)))
    : requireText("TASK_CONTEXT_ADMIN_TOKEN", token);
  const rateLimit = parseRateLimit(env.TASK_CONTEXT_RATE_LIMIT);
  const cors = parseCorsOrigins(env.TASK_CONTEXT_CORS_ORIGINS);
  const allowedHosts = parseAllowedHosts(env.TASK_CONTEXT_ALLOWED_HOSTS);
  const secrets = parseSecretPolicy("TASK_CONTEXT_SECRETS", env.TASK_CONTEXT_SECRETS);
  const clientTokens = parseClientTokens("TASK_CONTEXT_A2A_TOKENS", env.TASK_CONTEXT_A2A_TOKENS);
  return {
    adminToken,
    generatedAdminToken: generated,
    limits: { rateLimit, ...parseLimits(env) },
    ...(cors === undefined ? {} : { cors }),
    ...(allowedHosts === undefined ? {} : { allowedHosts }),
    secrets,
    ...(clientTokens.length === 0 ? {} : { a2aServer: { clientTokens } }),
  };
}

/** A whole number of at least `minimum` in `variable`, or undefined when it is unset or empty. */
function wholeNumberOf(
  variable: keyof ServiceEnv,
  value: string | undefined,
  minimum: number,
): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^\d+$/.test(value)) {
    throw new ArgumentError({
      argument: variable,
      message: `expected a whole number ≥ ${minimum}, got ${JSON.stringify(value)}.`,
    });
  }
  return requireWholeNumber(variable, Number(value), minimum);
}

/** `TASK_CONTEXT_BODY_BYTES`, `TASK_CONTEXT_KEEP_ALIVE_MS` and `TASK_CONTEXT_RECHECK_MS`, when set. */
function parseLimits(env: Readonly<ServiceEnv>): Omit<Limits, "rateLimit"> {
  const bodyBytes = wholeNumberOf("TASK_CONTEXT_BODY_BYTES", env.TASK_CONTEXT_BODY_BYTES, 1);
  const keepAliveMs = wholeNumberOf(
    "TASK_CONTEXT_KEEP_ALIVE_MS",
    env.TASK_CONTEXT_KEEP_ALIVE_MS,
    1,
  );
  const recheckMs = wholeNumberOf("TASK_CONTEXT_RECHECK_MS", env.TASK_CONTEXT_RECHECK_MS, 1);
  return {
    ...(bodyBytes === undefined ? {} : { bodyBytes }),
    ...(keepAliveMs === undefined ? {} : { keepAliveMs }),
    ...(recheckMs === undefined ? {} : { recheckMs }),
  };
}

/**
 * The service's settings from the variables every runtime shares.
 *
 * @deprecated Renamed `serviceSettingsFromEnv` (the Node entry's is `nodeSettingsFromEnv`: two
 * functions had one name); this alias goes in the next minor version.
 */
export const settingsFromEnv: typeof serviceSettingsFromEnv = serviceSettingsFromEnv;
