// The operations an A2A agent's attempt applies — its claim, heartbeats, completion or failure —
// run as a polling agent's requests run: through the operation executor, with the same checks,
// limits (a result over the body limit is PAYLOAD_TOO_LARGE, as over HTTP), spans and answers.
import type { CompletionView, FailureView } from "@task-context/contract";
import type { AgentIdentity, DeliveryStore } from "../delivery/delivery-store.ts";
import { executeOperation } from "../execution/execute-operation.ts";
import type { AgentCaller } from "../execution/operation-handler.ts";
import type { AgentServices } from "../execution/service-context.ts";

/**
 * An agent's operations on the work items of its run, as the A2A dispatcher applies them: a
 * claim (of the item named, or the oldest on offer) and a heartbeat as the store's, a completion
 * of what an agent's result makes (checked here) and a failure, each with its idempotency key.
 */
export interface AgentOperations extends Pick<DeliveryStore, "claim" | "heartbeat"> {
  complete(
    runId: string,
    agent: AgentIdentity,
    workItemId: string,
    body: unknown,
    idempotencyKey: string,
  ): Promise<CompletionView>;
  fail(
    runId: string,
    agent: AgentIdentity,
    workItemId: string,
    body: { attempt: number; reason: string },
    idempotencyKey: string,
  ): Promise<FailureView>;
}

/** The agent operations of a service whose store, clock and limits are `services`. */
export function agentOperations(services: AgentServices, signal: AbortSignal): AgentOperations {
  const context = { service: services, signal };
  const caller = (runId: string, agent: AgentIdentity): AgentCaller => ({
    role: "agent",
    runId,
    agent,
  });
  return {
    claim: (runId, agent, workItemId) =>
      workItemId === undefined
        ? executeOperation("claimNext", { caller: caller(runId, agent), query: {} }, context)
        : executeOperation(
            "claimWorkItem",
            { caller: caller(runId, agent), path: { id: workItemId } },
            context,
          ),
    heartbeat: (runId, agent, workItemId, attempt) =>
      executeOperation(
        "heartbeat",
        { caller: caller(runId, agent), path: { id: workItemId }, body: { attempt } },
        context,
      ),
    complete: (runId, agent, workItemId, body, idempotencyKey) =>
      executeOperation(
        "completeWorkItem",
        { caller: caller(runId, agent), path: { id: workItemId }, body, idempotencyKey },
        context,
      ),
    fail: (runId, agent, workItemId, body, idempotencyKey) =>
      executeOperation(
        "failWorkItem",
        { caller: caller(runId, agent), path: { id: workItemId }, body, idempotencyKey },
        context,
      ),
  };
}
