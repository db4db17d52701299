/**
 * A task-context work item agent over A2A 1.0, with the official SDK: what the delivery service
 * sends an A2A agent (a work item per lease attempt, as a message), read and checked, and each
 * answer (working, the artifact, a failure) published as the service expects it.
 * {@link startWorkItemAgent} serves one on Node with the SDK's express handlers (`express`, 4 or 5,
 * is an optional peer dependency: install it), and its TSDoc shows a whole agent;
 * {@link WorkItemExecutor} and {@link workItemAgentCard} are its parts, for a server of your own.
 * Its own entry, so that the service and its dispatcher never load the SDK's server.
 *
 * @module
 */
export { dataPart, textPart } from "./a2a/a2a-parts.ts";
export {
  type RunningWorkItemAgent,
  startWorkItemAgent,
  type WorkItemAgentOptions,
} from "./a2a/start-work-item-agent.ts";
export {
  type WorkItemAgentCardOptions,
  type WorkItemAgentSkill,
  workItemAgentCard,
} from "./a2a/work-item-agent-card.ts";
export {
  WorkItemExecutor,
  type WorkItemExecutorOptions,
  type WorkItemResult,
  type WorkItemTask,
} from "./a2a/work-item-executor.ts";
export type { AttemptMetadata } from "./a2a/work-item-message.ts";
