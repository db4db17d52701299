// A completion: the agent's current attempt (or its expired lease nobody else claimed) ends with
// the item's artifact (a task) or review (a review item), stored with what they hold that poses as
// instructions; the receipt the agent quoted is checked; the stage advances when nothing of it is
// left open. Once per idempotency key.
import { checkReceipt } from "@task-context/core";
import type { ContentFinding, ReviewFeedback } from "@task-context/protocols";
import type * as Contract from "../../contract/schemas.ts";
import { artifactReferenceOf } from "../artifact-reference.ts";
import {
  artifactFindings,
  artifactSubject,
  contentWarning,
  reviewFindings,
  reviewSubject,
} from "../content-findings.ts";
import type { AgentIdentity, IdempotencyKey } from "../delivery-store.ts";
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
 * The receipt of a completion: whether the run-context hash the agent quoted (`quoted`) is the
 * item's `current` one; `"none"` when it quoted none.
 */
export interface Receipt {
  status: "current" | "stale" | "none";
  quoted?: string;
  current: string;
}

/** A completion's answer, and its receipt (none for an answer given again for its key). */
export interface Completed {
  view: Contract.CompletionView;
  receipt: Receipt | undefined;
}

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
  if (replay !== undefined) return { view: replay as Contract.CompletionView, receipt: undefined };
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
  const checked =
    current === undefined
      ? undefined
      : checkReceipt({
          quoted: body.context_sha256,
          current,
          recipient: `agent "${agent.tag}" on work item ${item.id}`,
        });
  if (checked?.status === "stale") {
    draft.emit("context.stale", {
      work_item_id: item.id,
      agent_tag: agent.tag,
      attempt: item.attempt,
      quoted_context_sha256: checked.quoted ?? "",
      context_sha256: checked.current,
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
    ...warningOf([checked?.warning, flagged]),
  };
  rememberAnswer(draft, agent, idempotency, view);
  return { view, receipt: checked === undefined ? undefined : receiptOf(checked) };
}

/** The typed receipt of core's check. */
function receiptOf(checked: ReturnType<typeof checkReceipt>): Receipt {
  if (checked.status === "unquoted") return { status: "none", current: checked.current };
  return { status: checked.status, quoted: checked.quoted ?? "", current: checked.current };
}

/** The answer's `warning`: its sentences joined by a space, or nothing when there are none. */
function warningOf(sentences: ReadonlyArray<string | undefined>): { warning?: string } {
  const warning = sentences.filter((sentence) => sentence !== undefined).join(" ");
  return warning === "" ? {} : { warning };
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
