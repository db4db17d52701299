import { checkReceipt } from "@task-context/core";
import type * as Contract from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { AgentIdentity } from "../delivery/delivery-store.ts";
import { storeArtifact } from "./artifacts.ts";
import { endAttempt } from "./attempts.ts";
import { type Completing, completionKindIssues, invalidCompletion } from "./completion-checks.ts";
import { requireCompletableLease } from "./leases.ts";
import { storeReview } from "./reviews.ts";
import { emitEvent } from "./run-events.ts";
import { type RunState, stageOf } from "./run-state.ts";
import { updateRunStatus } from "./run-status.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ItemRow } from "./sql-rows.ts";
import { advanceStage } from "./stage-progression.ts";

/**
 * Completes a work item with its artifact (task) or review (review): stores it, ends the attempt,
 * checks the receipt the agent quoted against `current` (the item's run-context hash now, or
 * undefined when none was quoted) and, when the stage has nothing left to do, starts the next.
 */
export function completeItem(
  database: SqlDatabase,
  state: RunState,
  item: ItemRow,
  agent: AgentIdentity,
  body: Contract.CompleteBody,
  current: string | undefined,
): Contract.CompletionView {
  if (item.status === "completed") {
    throw new DeliveryError({
      code: "ALREADY_COMPLETED",
      message: `Work item ${item.id} is already completed; a second completion is refused. Poll the inbox for more work.`,
    });
  }
  requireCompletableLease(database, state.run.id, item, agent, body.attempt);
  const wrongKind = completionKindIssues(item, body);
  if (wrongKind.length > 0) throw invalidCompletion(wrongKind);
  const completion: Completing = { state, item, stage: stageOf(state, item), agent };
  let artifactId: string | undefined;
  if (body.artifact !== undefined) artifactId = storeArtifact(database, completion, body.artifact);
  if (body.review !== undefined) storeReview(database, completion, body.review);
  database.run(
    `UPDATE work_items SET status = 'completed', lease_expires_at = NULL, dead_lettered_at = NULL
       WHERE run_id = ? AND id = ?`,
    state.run.id,
    item.id,
  );
  endAttempt(database, state, item.id, item.attempt, "completed");
  const receipt =
    current === undefined
      ? undefined
      : checkReceipt({
          quoted: body.context_sha256,
          current,
          recipient: `agent "${agent.tag}" on work item ${item.id}`,
        });
  if (receipt?.status === "stale") {
    emitEvent(database, state, "context.stale", {
      work_item_id: item.id,
      agent_tag: agent.tag,
      attempt: item.attempt,
      quoted_context_sha256: receipt.quoted ?? "",
      context_sha256: current ?? "",
    });
  }
  const event = emitEvent(database, state, "work_item.completed", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    attempt: item.attempt,
  });
  if (item.status === "dead_lettered") updateRunStatus(database, state, item.id);
  advanceStage(database, state, item.stage_position);
  return {
    work_item_id: item.id,
    status: "completed" as const,
    ...(artifactId === undefined ? {} : { artifact_id: artifactId }),
    event_id: event.id,
    ...(receipt?.warning === undefined ? {} : { warning: receipt.warning }),
  };
}
