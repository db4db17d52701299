// A completion: the agent's current attempt (or its expired lease nobody else claimed) ends with
// the item's artifact (a task) or review (a review item), stored with what they hold that poses as
// instructions; the receipt the agent quoted is checked (typed on the answer: the edge words its
// warning); the stage advances when nothing of it is left open. Once per idempotency key.

import type * as Contract from "@task-context/contract";
import type { ContentFinding, ReviewFeedback } from "@task-context/protocols";
import { artifactReferenceOf } from "../artifact-reference.ts";
import {
  artifactFindings,
  artifactSubject,
  contentWarning,
  reviewFindings,
  reviewSubject,
} from "../content-findings.ts";
import type { AgentIdentity, Completed, IdempotencyKey } from "../delivery-store.ts";
import { checkCompletionReceipt, type Receipt } from "../receipt.ts";
import {
  completionKindIssues,
  completionRefusal,
  invalidCompletion,
  itemStatus,
  reviewIssues,
} from "../rules.ts";
import type { Draft } from "./draft.ts";
import { answered, rememberAnswer } from "./idempotency.ts";
import { requireItem, updateRunStatus } from "./items.ts";
import { type ItemRecord, stageOf } from "./run-state.ts";
import { advanceStage } from "./stages.ts";

/**
 * A completion's answer as its idempotency key keeps it: the view with the receipt beside it, so
 * that the answer given again carries the same receipt. (Answers kept before the receipt was
 * typed have none, and the stale-receipt sentence already in their warning.)
 */
type RememberedCompletion = Contract.CompletionView & { receipt?: Receipt };

/** What a completion is made with. */
export interface Completion {
  agent: AgentIdentity;
  workItemId: string;
  body: Contract.CompleteBody;
  idempotency?: IdempotencyKey | undefined;
  /** The item's run-context hash now (the store hashes it); no receipt is checked without it. */
  current?: string | undefined;
}

/** Completes a work item. */
export function complete(draft: Draft, completion: Completion): Completed {
  const { agent, workItemId, body, idempotency, current } = completion;
  const replay = answered(draft, agent, idempotency);
  if (replay !== undefined) {
    const { receipt, ...view } = replay as RememberedCompletion;
    return { view, receipt };
  }
  const item = requireItem(draft, workItemId);
  const outcome = item.status === itemStatus.leased ? undefined : (item.outcome ?? undefined);
  const refusal = completionRefusal(item, agent, body.attempt, outcome);
  if (refusal !== undefined) throw refusal;
  const wrongKind = completionKindIssues(item, body);
  if (wrongKind.length > 0) throw invalidCompletion(wrongKind);
  const target = item.target_artifact_id ?? "";
  if (body.review !== undefined) {
    const issues = reviewIssues(
      target,
      stageOf(draft.state, item).stage.review_criteria ?? [],
      body.review,
    );
    if (issues.length > 0) throw invalidCompletion(issues);
  }
  const stored =
    body.artifact === undefined ? undefined : storeArtifact(draft, item, agent, body.artifact);
  if (body.review !== undefined) storeReview(draft, item, agent, target, body.review);
  const flagged = flagContent(draft, item, agent, body, stored);
  draft.putItem({
    ...item,
    status: itemStatus.completed,
    lease_expires_at: null,
    dead_lettered_at: null,
    outcome: "completed",
  });
  draft.write({
    type: "endAttempt",
    work_item_id: item.id,
    attempt: item.attempt,
    outcome: "completed",
    reason: null,
    ended_at: draft.now,
  });
  const receipt =
    current === undefined
      ? undefined
      : checkCompletionReceipt({
          quoted: body.context_sha256,
          current,
          agentTag: agent.tag,
          workItemId: item.id,
        });
  if (receipt?.status === "stale") {
    draft.emit("context.stale", {
      work_item_id: item.id,
      agent_tag: agent.tag,
      attempt: item.attempt,
      quoted_context_sha256: receipt.quoted ?? "",
      context_sha256: receipt.current,
    });
  }
  const event = draft.emit("work_item.completed", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    attempt: item.attempt,
  });
  if (item.status === itemStatus.deadLettered) updateRunStatus(draft, item.id);
  advanceStage(draft, item.stage_position);
  const view: Contract.CompletionView = {
    work_item_id: item.id,
    status: "completed",
    ...(stored === undefined ? {} : { artifact_id: stored.id }),
    event_id: event.id,
    ...(flagged === undefined ? {} : { warning: flagged }),
  };
  const remembered: RememberedCompletion = receipt === undefined ? view : { ...view, receipt };
  rememberAnswer(draft, agent, idempotency, remembered);
  return { view, receipt };
}

/**
 * Stores the artifact a task item is completed with and announces it; its id and what it holds
 * that poses as instructions.
 */
function storeArtifact(
  draft: Draft,
  item: ItemRecord,
  agent: AgentIdentity,
  artifact: NonNullable<Contract.CompleteBody["artifact"]>,
): { id: string; findings: ContentFinding[] } {
  const stage = stageOf(draft.state, item);
  const id = draft.newId("art");
  const title = artifact.title ?? null;
  const findings = artifactFindings({ title, content: artifact.content });
  const record = {
    id,
    stage_position: item.stage_position,
    stage_id: stage.id,
    work_item_id: item.id,
    author_id: agent.agent_id,
    author_tag: agent.tag,
    title,
    media_type: artifact.media_type,
    created_at: draft.now,
  };
  const event = draft.emit("artifact.created", {
    work_item_id: item.id,
    artifact: artifactReferenceOf(draft.run.id, record, findings),
  });
  draft.addArtifact({
    type: "insertArtifact",
    artifact: { ...record, seq: event.seq },
    content: artifact.content,
    findings,
  });
  return { id, findings };
}

/** Stores the review a review item is completed with (checked already) and announces it. */
function storeReview(
  draft: Draft,
  item: ItemRecord,
  agent: AgentIdentity,
  target: string,
  review: NonNullable<Contract.CompleteBody["review"]>,
): void {
  const feedback: ReviewFeedback = {
    work_item_id: item.id,
    target_artifact_id: target,
    reviewer_tag: agent.tag,
    verdict: review.verdict,
    summary: review.summary,
    criteria: review.criteria,
  };
  draft.write({ type: "insertReview", feedback, created_at: draft.now });
  draft.emit("review.feedback", { artifact_id: target, feedback });
}

/**
 * Announces what the completion sent that poses as instructions or as a task-context format
 * (`content.flagged`), stored exactly as sent all the same; the warning for the completing agent.
 */
function flagContent(
  draft: Draft,
  item: ItemRecord,
  agent: AgentIdentity,
  body: Contract.CompleteBody,
  stored: { id: string; findings: ContentFinding[] } | undefined,
): string | undefined {
  const findings =
    stored?.findings ?? (body.review === undefined ? [] : reviewFindings(body.review));
  if (findings.length === 0) return undefined;
  draft.emit("content.flagged", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    ...(stored === undefined ? {} : { artifact_id: stored.id }),
    findings,
  });
  return contentWarning(
    stored === undefined ? reviewSubject(item.id) : artifactSubject(stored.id),
    findings,
  );
}
