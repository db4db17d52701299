/**
 * The task-context delivery service, runtime-agnostic: the Hono app (`createApp`), the store
 * interface (`DeliveryStore`) and its SQL implementation over a small synchronous SQL interface,
 * the migrations, the contract's zod schemas and types, its OpenAPI document, and the settings
 * every runtime reads from its environment (`settingsFromEnv`).
 * `@task-context/server/node` runs it on Node with SQLite; `@task-context/server/workers` on
 * Cloudflare Workers with a Durable Object per run.
 *
 * @module
 */
export { type AppOptions, createApp, type Limits } from "./app.ts";
export { type OpenApiDocument, openApiDocument } from "./contract/openapi.ts";
export * from "./contract/schemas.ts";
export {
  DeliveryError,
  type DeliveryErrorCode,
  deliveryErrorStatus,
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
  settingsFromEnv,
} from "./settings.ts";
export { migrate } from "./sql/schema.ts";
export type { SqlDatabase, SqlValue } from "./sql/sql-database.ts";
export { SqlStore, type SqlStoreOptions } from "./sql/sql-store.ts";
export { artifactUri } from "./sql/views.ts";
