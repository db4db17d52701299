/**
 * A2A 1.0 agents of the delivery service, for an app you compose yourself with `createApp`:
 * `startNodeServer` and the Workers entry start delivery on their own. Register agents through the
 * app (`POST /v1/runs/{run_id}/agents` with `a2a`, its `a2a.agentAdded` hook tells you the run),
 * and let an {@link A2aDispatcher} deliver their work items as A2A tasks. Its own entry, so that
 * apps without A2A agents never load the A2A SDK.
 *
 * ```ts source="../examples/a2a-dispatcher.ts#A2aDispatcher"
 * const store = new SqlStore(openNodeDatabase("service.db"));
 * const dispatcher = new A2aDispatcher({ store, serviceUrl: "https://service.example.com" });
 * const app = createApp({
 *   store,
 *   auth: { adminToken },
 *   a2a: { agentAdded: (runId) => void dispatcher.watchRun(runId) },
 * });
 * ```
 *
 * @module
 */
export type { AttemptResult } from "./a2a/a2a-attempt.ts";
export {
  A2aDispatcher,
  type A2aDispatcherOptions,
  type A2aDispatchStats,
} from "./a2a/a2a-dispatcher.ts";
export {
  AGENT_CARD_PATH,
  coversSkills,
  MAX_AGENT_CARD_BYTES,
  matchStages,
  readAgentCard,
} from "./a2a/agent-card.ts";
export { STUCK_LEASES } from "./a2a/attempt-lease.ts";
export {
  type AttemptOutcome,
  type FinalOutcome,
  messageOutcome,
  type OutcomeLimits,
  taskOutcome,
} from "./a2a/task-outcome.ts";
export {
  type AttemptMetadata,
  attemptMessageId,
  METADATA_KEY,
  workItemMessage,
  workItemText,
} from "./a2a/work-item-message.ts";
