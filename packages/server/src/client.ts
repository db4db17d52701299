/**
 * A typed client of the delivery service's HTTP contract: one method per endpoint, the
 * contract's types in and out, refusals as {@link ServiceError}, `429` answered by waiting
 * `Retry-After`, completions and failures made safe to retry with an `Idempotency-Key`, and the
 * event stream as an async iterator that resumes after a dropped connection. It needs only
 * `fetch` (and loads neither zod nor hono): Node, Deno, Bun, Cloudflare Workers, browsers.
 *
 * ```ts source="../examples/typed-client.ts#admin"
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
export type {
  Artifact,
  CollaborationEvent,
  ReviewFeedback,
  WorkItem,
} from "@task-context/protocols/work-item";
export type { FollowEventsOptions } from "./client/follow-events.ts";
export {
  type CallOptions,
  createServiceClient,
  type ListEventsOptions,
  type PollOptions,
  type ServiceClient,
  type ServiceClientOptions,
  type SettleOptions,
  type WaitOptions,
} from "./client/service-client.ts";
export { ServiceError, type ServiceErrorCode } from "./client/service-error.ts";
export type { Fetch, RetryOptions } from "./client/transport.ts";
export type {
  AddAgentInput,
  AgentCreated,
  AttemptRecord,
  ClaimView,
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
  OffersView,
  RequeueView,
  RunCreated,
  RunView,
  SchemaList,
  StageInput,
  StageView,
  ValidationView,
  ViewLinkCreated,
} from "./contract/schemas.ts";
