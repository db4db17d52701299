/**
 * The typed client of the task-context delivery service: one method per operation of its HTTP
 * contract, the contract's types in and out, refusals as {@link ServiceError}, `429` answered by
 * waiting `Retry-After`, completions and failures made safe to retry with an `Idempotency-Key`,
 * and the event stream as an async iterator that resumes after a dropped connection. It needs
 * only `fetch` (no zod, no hono, no server): Node, Deno, Bun, Cloudflare Workers, browsers. Its
 * types and its table of operations are generated from the service's OpenAPI document.
 *
 * ```ts source="../../server/examples/typed-client.ts#admin"
 * const admin = createServiceClient({ url: server.url, token: "change-me" });
 * const run = await admin.createRun({
 *   goal: "Launch Lumen",
 *   constraints: ["Say Lumen, never Lumen App"],
 *   stages: [
 *     {
 *       id: "draft",
 *       stage_description: "Write the launch post",
 *       expected_output: "Markdown, with a title",
 *       available_skills: [],
 *     },
 *   ],
 * });
 * const { token } = await admin.addAgent(run.run_id, { tag: "writer" }); // shown this once
 * ```
 *
 * @module
 */
export type { FollowEventsOptions } from "./follow-events.ts";
export type {
  A2aCredential,
  AddAgentInput,
  AgentCreated,
  AgentList,
  AgentView,
  Artifact,
  ArtifactInput,
  AttemptRecord,
  ClaimView,
  CollaborationEvent,
  CompleteBody,
  CompletionView,
  CreateRunInput,
  CreateViewLinkInput,
  DeadLetter,
  DeadLettersView,
  ErrorBody,
  EventPage,
  FailBody,
  FailureView,
  HealthView,
  HeartbeatBody,
  HeartbeatView,
  Lease,
  OffersView,
  RequeueView,
  ReviewFeedback,
  ReviewInput,
  RunCreated,
  RunList,
  RunSummary,
  RunView,
  SchemaList,
  StageInput,
  StageView,
  ValidationView,
  ViewLinkCreated,
  WorkItem,
} from "./generated/schemas.ts";
export type { OpenApiDocument } from "./openapi-document.ts";
export type { CallOptions } from "./operation-call.ts";
export {
  type ClaimNextOptions,
  createServiceClient,
  type ListEventsOptions,
  type ListRunsOptions,
  type PollOptions,
  type ServiceClient,
  type ServiceClientOptions,
  type SettleOptions,
  type WaitOptions,
} from "./service-client.ts";
export {
  type ErrorCode,
  ServiceError,
  type ServiceErrorCode,
  type ValidationIssue,
} from "./service-error.ts";
export type { Fetch, RetryOptions } from "./transport.ts";
