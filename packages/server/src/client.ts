/**
 * The typed client of the delivery service moved to its own package, `@task-context/client`,
 * which installs without the server's dependencies (no PostgreSQL driver, no A2A or MCP SDK, no
 * zod): import it from there. This subpath re-exports it for one minor version.
 *
 * @deprecated Import from `@task-context/client` instead: `import { createServiceClient } from "@task-context/client"`.
 * @module
 */
export type {
  /** @deprecated Import from `@task-context/client`. */
  AddAgentInput,
  /** @deprecated Import from `@task-context/client`. */
  AgentCreated,
  /** @deprecated Import from `@task-context/client`. */
  Artifact,
  /** @deprecated Import from `@task-context/client`. */
  AttemptRecord,
  /** @deprecated Import from `@task-context/client`. */
  CallOptions,
  /** @deprecated Import from `@task-context/client`. */
  ClaimView,
  /** @deprecated Import from `@task-context/client`. */
  CollaborationEvent,
  /** @deprecated Import from `@task-context/client`. */
  CompleteBody,
  /** @deprecated Import from `@task-context/client`. */
  CompletionView,
  /** @deprecated Import from `@task-context/client`. */
  CreateRunInput,
  /** @deprecated Import from `@task-context/client`. */
  CreateViewLinkInput,
  /** @deprecated Import from `@task-context/client`. */
  DeadLetter,
  /** @deprecated Import from `@task-context/client`. */
  DeadLettersView,
  /** @deprecated Import from `@task-context/client`. */
  ErrorBody,
  /** @deprecated Import from `@task-context/client`. */
  EventPage,
  /** @deprecated Import from `@task-context/client`. */
  FailBody,
  /** @deprecated Import from `@task-context/client`. */
  FailureView,
  /** @deprecated Import from `@task-context/client`. */
  Fetch,
  /** @deprecated Import from `@task-context/client`. */
  FollowEventsOptions,
  /** @deprecated Import from `@task-context/client`. */
  HealthView,
  /** @deprecated Import from `@task-context/client`. */
  HeartbeatBody,
  /** @deprecated Import from `@task-context/client`. */
  HeartbeatView,
  /** @deprecated Import from `@task-context/client`. */
  ListEventsOptions,
  /** @deprecated Import from `@task-context/client`. */
  OffersView,
  /** @deprecated Import from `@task-context/client`. */
  PollOptions,
  /** @deprecated Import from `@task-context/client`. */
  RequeueView,
  /** @deprecated Import from `@task-context/client`. */
  RetryOptions,
  /** @deprecated Import from `@task-context/client`. */
  ReviewFeedback,
  /** @deprecated Import from `@task-context/client`. */
  RunCreated,
  /** @deprecated Import from `@task-context/client`. */
  RunView,
  /** @deprecated Import from `@task-context/client`. */
  SchemaList,
  /** @deprecated Import from `@task-context/client`. */
  ServiceClient,
  /** @deprecated Import from `@task-context/client`. */
  ServiceClientOptions,
  /** @deprecated Import from `@task-context/client`. */
  ServiceErrorCode,
  /** @deprecated Import from `@task-context/client`. */
  SettleOptions,
  /** @deprecated Import from `@task-context/client`. */
  StageInput,
  /** @deprecated Import from `@task-context/client`. */
  StageView,
  /** @deprecated Import from `@task-context/client`. */
  ValidationView,
  /** @deprecated Import from `@task-context/client`. */
  ViewLinkCreated,
  /** @deprecated Import from `@task-context/client`. */
  WaitOptions,
  /** @deprecated Import from `@task-context/client`. */
  WorkItem,
} from "@task-context/client";
export {
  /** @deprecated Import from `@task-context/client`. */
  createServiceClient,
  /** @deprecated Import from `@task-context/client`. */
  ServiceError,
} from "@task-context/client";
