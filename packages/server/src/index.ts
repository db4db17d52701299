/**
 * The task-context delivery service, runtime-agnostic: the Hono app (`createApp`), the store
 * interface (`DeliveryStore`) and its SQL implementation over a small synchronous SQL interface,
 * the migrations, the rate limiter, the errors, and the settings every runtime reads from its
 * environment (`serviceSettingsFromEnv`). The wire contract (schemas, error codes, operations,
 * the OpenAPI document) is `@task-context/contract`.
 * `@task-context/server/node` runs it on Node with SQLite; `@task-context/server/workers` on
 * Cloudflare Workers with a Durable Object per run.
 *
 * @module
 */
export type { A2aServerOptions } from "./a2a-server/client-tokens.ts";
export { type AppOptions, createApp, type Limits } from "./app.ts";
export {
  DeliveryError,
  type DeliveryErrorCode,
  runNotFound,
} from "./delivery/delivery-error.ts";
export type {
  AgentIdentity,
  ChangedOptions,
  DeliveryStore,
  IdempotencyKey,
  StoredAgent,
} from "./delivery/delivery-store.ts";
export { newAgentToken, newId, parseAgentToken } from "./delivery/ids.ts";
export * from "./deprecated-contract.ts";
export type { A2aOptions } from "./execution/service-context.ts";
export type { AuthOptions, Caller } from "./http/auth.ts";
export {
  type AuthenticatedToken,
  defaultRateLimit,
  memoryRateLimiter,
  parseRateLimit,
  type RateLimit,
  type RateLimiter,
  type RateLimiterFactory,
  type RateLimitKeys,
} from "./http/rate-limit.ts";
export {
  type ServiceEnv,
  type ServiceSettings,
  type SettingsFromEnvOptions,
  serviceSettingsFromEnv,
  settingsFromEnv,
} from "./settings.ts";
export { migrate } from "./sql/schema.ts";
export type { SqlDatabase, SqlValue } from "./sql/sql-database.ts";
export { SqlStore, type SqlStoreOptions } from "./sql/sql-store.ts";
export { artifactUri } from "./sql/views.ts";
