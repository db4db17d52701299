// The work-item lifecycle in SQL: offer, claim, heartbeat, complete, fail, expire, dead-letter,
// requeue, and the stage progression a completion leads to. The rules (who may do what, what a
// failure leads to) are in ../delivery/rules.ts; this file writes their outcome down.
import { checkReceipt } from "@task-context/core";
import type { ContentFinding, ReviewFeedback, WorkItem } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import {
  artifactSubject,
  contentWarning,
  reviewFindings,
  reviewSubject,
} from "../delivery/content-findings.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { AgentIdentity, IdempotencyKey } from "../delivery/delivery-store.ts";
import { newId } from "../delivery/ids.ts";
import {
  afterFailedAttempt,
  claimRefusal,
  completionKindIssues,
  completionRefusal,
  invalidCompletion,
  itemStatus,
  liveLeaseRefusal,
  reviewIssues,
  runStatusFor,
} from "../delivery/rules.ts";
import { scannedArtifactFindings } from "./artifact-findings.ts";
import { emitEvent } from "./events.ts";
import { type RunState, stageOf } from "./runs.ts";
import { type ArtifactRow, type ItemRow, iso, type RunStatus } from "./schema.ts";
import { all, run, type SqlSteps } from "./sql-steps.ts";
import { artifactReferenceOf, workItemView } from "./views.ts";

const { offered, leased, completed, deadLettered } = itemStatus;

/** A run's work item by its id, or undefined. */
export function* findItem(runId: string, workItemId: string): SqlSteps<ItemRow | undefined> {
  return (yield* all<ItemRow>(
    "SELECT * FROM work_items WHERE run_id = ? AND id = ?",
    runId,
    workItemId,
  ))[0];
}

/** A run's work item by its id; `WORK_ITEM_NOT_FOUND` for an id the run does not have. */
export function* requireItem(runId: string, workItemId: string): SqlSteps<ItemRow> {
  return requireFound(workItemId, yield* findItem(runId, workItemId));
}

/** `item`, or `WORK_ITEM_NOT_FOUND` when there is none. */
function requireFound<Row>(workItemId: string, item: Row | undefined): Row {
  if (item === undefined) {
    throw new DeliveryError({
      code: "WORK_ITEM_NOT_FOUND",
      message: `The run has no work item ${workItemId}. Take work item ids from the inbox.`,
    });
  }
  return item;
}

/** A work item about to be completed or failed, and whether its stage waits for another. */
export interface SettlingItem extends ItemRow {
  /** Another item of the stage is on offer, leased or dead-lettered (SQLite answers 0 or 1). */
  stage_open_besides: boolean | number;
}

/**
 * {@link requireItem} for a completion or failure, with whether another item of its stage is
 * still open in the same read: under the run's lock nothing else changes the other items before
 * the operation commits, so a completion knows without a second read whether its stage is done.
 */
export function* requireSettlingItem(runId: string, workItemId: string): SqlSteps<SettlingItem> {
  const [item] = yield* all<SettlingItem>(
    `SELECT item.*, EXISTS (
       SELECT 1 FROM work_items other WHERE other.run_id = item.run_id
         AND other.status IN ('${offered}', '${leased}', '${deadLettered}')
         AND other.stage_position = item.stage_position AND other.id <> item.id
     ) AS stage_open_besides
     FROM work_items item WHERE item.run_id = ? AND item.id = ?`,
    runId,
    workItemId,
  );
  return requireFound(workItemId, item);
}

// ---------------------------------------------------------------------------------------------
// Offer

/** Puts an item (back) on offer, at the end of the queue. */
function* offerItem(
  state: RunState,
  item: Pick<ItemRow, "id" | "kind" | "attempt" | "stage_position">,
): SqlSteps<void> {
  const event = yield* emitEvent(state, "work_item.offered", {
    work_item_id: item.id,
    stage_id: state.stages[item.stage_position]?.id ?? "",
    kind: item.kind,
    attempt: item.attempt + 1,
  });
  yield* run(
    `UPDATE work_items SET status = '${offered}', offered_seq = ? WHERE run_id = ? AND id = ?`,
    event.seq,
    state.run.id,
    item.id,
  );
}

/** The items on offer to an agent, oldest offer first: never a review of its own work. */
const onOffer = `SELECT * FROM work_items WHERE run_id = ? AND status = '${offered}'
  AND (target_author_id IS NULL OR target_author_id <> ?) ORDER BY offered_seq`;

/** The items `agent` may claim, oldest offer first, at most `limit`. */
export function* itemsOnOffer(
  state: RunState,
  agent: AgentIdentity,
  limit: number,
): SqlSteps<ItemRow[]> {
  // The limit a claim takes is written out: SQLite finds the first row about twice as fast.
  return limit === 1
    ? yield* all<ItemRow>(`${onOffer} LIMIT 1`, state.run.id, agent.agent_id)
    : yield* all<ItemRow>(`${onOffer} LIMIT ?`, state.run.id, agent.agent_id, limit);
}

/**
 * Makes a stage the run's current one and offers its items: a task stage gets its `items`; a
 * review stage one item for each artifact of the stage it reviews.
 */
export function* startStage(state: RunState, position: number): SqlSteps<void> {
  const entry = state.stages[position];
  if (entry === undefined) return;
  const { stage } = entry;
  yield* run("UPDATE runs SET current_stage = ? WHERE id = ?", position, state.run.id);
  entry.status = "active";
  state.run.current_stage = position;
  const targets: Array<ArtifactRow | undefined> =
    stage.kind === "review"
      ? yield* all<ArtifactRow>(
          "SELECT * FROM artifacts WHERE run_id = ? AND stage_id = ? ORDER BY seq",
          state.run.id,
          stage.reviews ?? "",
        )
      : Array.from({ length: stage.items ?? 1 }, () => undefined);
  for (const target of targets) {
    const item = {
      id: newId("wi"),
      kind: target === undefined ? ("task" as const) : ("review" as const),
      attempt: 0,
      stage_position: position,
    };
    yield* run(
      `INSERT INTO work_items (run_id, id, stage_position, kind, status, attempt, failures, offered_seq,
         target_artifact_id, target_author_id, target_author_tag)
       VALUES (?, ?, ?, ?, '${offered}', 0, 0, 0, ?, ?, ?)`,
      state.run.id,
      item.id,
      position,
      item.kind,
      target?.id ?? null,
      target?.author_id ?? null,
      target?.author_tag ?? null,
    );
    yield* offerItem(state, item);
  }
}

/**
 * After a completion: when the stage has nothing left to do (`openBesides`: another of its items
 * is still open), the next one starts.
 */
function* advanceStage(state: RunState, position: number, openBesides: boolean): SqlSteps<void> {
  if (openBesides) return;
  const entry = state.stages[position];
  if (entry === undefined || entry.status === "completed") return;
  entry.status = "completed";
  yield* emitEvent(state, "stage.completed", { stage_id: entry.id });
  if (position + 1 < state.stages.length) {
    yield* startStage(state, position + 1);
    return;
  }
  yield* setRunStatus(state, "completed");
  yield* emitEvent(state, "run.completed", {});
}

// ---------------------------------------------------------------------------------------------
// Claim and heartbeat

/** A claim as the store answers it before the work item gets its `context_sha256`. */
export interface Claim {
  /** The leased item. */
  work_item: WorkItem;
  /** The new attempt and when its lease expires. */
  lease: Contract.ClaimView["lease"];
}

/**
 * Claims one item (`workItemId`) or the oldest one on offer to `agent` (undefined): a new attempt
 * with a lease. Undefined when nothing is on offer (claim-next only).
 */
export function* claimItem(
  state: RunState,
  agent: AgentIdentity,
  workItemId: string | undefined,
): SqlSteps<Claim | undefined> {
  const runId = state.run.id;
  let item: ItemRow | undefined;
  if (workItemId === undefined) {
    [item] = yield* itemsOnOffer(state, agent, 1);
    if (item === undefined) return undefined;
  } else {
    item = yield* requireItem(runId, workItemId);
    const refusal = claimRefusal(item, agent);
    if (refusal !== undefined) throw refusal;
  }
  const attempt = item.attempt + 1;
  const expiresAt = state.now + state.run.lease_ms;
  yield* run(
    `UPDATE work_items SET status = '${leased}', attempt = ?, holder_id = ?, holder_tag = ?, lease_expires_at = ?
     WHERE run_id = ? AND id = ?`,
    attempt,
    agent.agent_id,
    agent.tag,
    expiresAt,
    runId,
    item.id,
  );
  yield* run(
    `INSERT INTO attempts (run_id, work_item_id, attempt, agent_id, agent_tag, leased_at, outcome)
     VALUES (?, ?, ?, ?, ?, ?, 'leased')`,
    runId,
    item.id,
    attempt,
    agent.agent_id,
    agent.tag,
    state.now,
  );
  yield* emitEvent(state, "work_item.leased", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    attempt,
    expires_at: iso(expiresAt),
  });
  const claimed: ItemRow = {
    ...item,
    status: leased,
    attempt,
    holder_id: agent.agent_id,
    holder_tag: agent.tag,
    lease_expires_at: expiresAt,
  };
  return {
    work_item: yield* workItemView(state, claimed),
    lease: { attempt, expires_at: iso(expiresAt) },
  };
}

/** Extends the lease of the current attempt by the run's lease time, from now. */
export function* renewLease(
  state: RunState,
  agent: AgentIdentity,
  workItemId: string,
  attempt: number,
): SqlSteps<Contract.HeartbeatView> {
  const runId = state.run.id;
  const item = yield* requireItem(runId, workItemId);
  const refusal = liveLeaseRefusal(item, agent, attempt);
  if (refusal !== undefined) throw refusal;
  const expiresAt = state.now + state.run.lease_ms;
  yield* run(
    "UPDATE work_items SET lease_expires_at = ? WHERE run_id = ? AND id = ?",
    expiresAt,
    runId,
    item.id,
  );
  return { expires_at: iso(expiresAt) };
}

// ---------------------------------------------------------------------------------------------
// Complete

/**
 * Completes a work item with its artifact (task) or review (review): stores it, ends the attempt,
 * checks the receipt the agent quoted against `current` (the item's run-context hash now, or
 * undefined when none was quoted) and, when the stage has nothing left to do, starts the next.
 */
export function* completeItem(
  state: RunState,
  item: SettlingItem,
  agent: AgentIdentity,
  body: Contract.CompleteBody,
  current: string | undefined,
): SqlSteps<Contract.CompletionView> {
  const outcome = item.status === leased ? undefined : yield* attemptOutcome(state, item);
  const refusal = completionRefusal(item, agent, body.attempt, outcome);
  if (refusal !== undefined) throw refusal;
  const wrongKind = completionKindIssues(item, body);
  if (wrongKind.length > 0) throw invalidCompletion(wrongKind);
  const stored =
    body.artifact === undefined
      ? undefined
      : yield* storeArtifact(state, item, agent, body.artifact);
  const artifactId = stored?.id;
  if (body.review !== undefined) yield* storeReview(state, item, agent, body.review);
  const flagged = yield* flagContent(state, item, agent, body, stored);
  yield* run(
    `UPDATE work_items SET status = '${completed}', lease_expires_at = NULL, dead_lettered_at = NULL
       WHERE run_id = ? AND id = ?`,
    state.run.id,
    item.id,
  );
  yield* endAttempt(state, item, "completed");
  const receipt =
    current === undefined
      ? undefined
      : checkReceipt({
          quoted: body.context_sha256,
          current,
          recipient: `agent "${agent.tag}" on work item ${item.id}`,
        });
  if (receipt?.status === "stale") {
    yield* emitEvent(state, "context.stale", {
      work_item_id: item.id,
      agent_tag: agent.tag,
      attempt: item.attempt,
      quoted_context_sha256: receipt.quoted ?? "",
      context_sha256: current ?? "",
    });
  }
  const event = yield* emitEvent(state, "work_item.completed", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    attempt: item.attempt,
  });
  if (item.status === deadLettered) yield* updateRunStatus(state, item.id);
  yield* advanceStage(state, item.stage_position, Boolean(item.stage_open_besides));
  return {
    work_item_id: item.id,
    status: "completed" as const,
    ...(artifactId === undefined ? {} : { artifact_id: artifactId }),
    event_id: event.id,
    ...warningOf([receipt?.warning, flagged]),
  };
}

/** The answer's `warning`: its sentences joined by a space, or nothing when there are none. */
function warningOf(sentences: ReadonlyArray<string | undefined>): { warning?: string } {
  const warning = sentences.filter((sentence) => sentence !== undefined).join(" ");
  return warning === "" ? {} : { warning };
}

/**
 * Scans what the completion sent — the artifact's title and content, or the review's summary and
 * comments — for passages that pose as instructions or as a task-context format, stored exactly
 * as sent all the same; when there are any, announces them (`content.flagged`) and returns the
 * warning for the completing agent.
 */
function* flagContent(
  state: RunState,
  item: ItemRow,
  agent: AgentIdentity,
  body: Contract.CompleteBody,
  stored: { id: string; findings: ContentFinding[] } | undefined,
): SqlSteps<string | undefined> {
  const findings =
    stored?.findings ?? (body.review === undefined ? [] : reviewFindings(body.review));
  if (findings.length === 0) return undefined;
  yield* emitEvent(state, "content.flagged", {
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

/**
 * Stores the artifact a task item is completed with and announces it; returns its id and what it
 * holds that poses as instructions.
 */
function* storeArtifact(
  state: RunState,
  item: ItemRow,
  agent: AgentIdentity,
  artifact: NonNullable<Contract.CompleteBody["artifact"]>,
): SqlSteps<{ id: string; findings: ContentFinding[] }> {
  const stage = stageOf(state, item);
  const id = newId("art");
  const title = artifact.title ?? null;
  const findings = scannedArtifactFindings(state.run.id, { id, title, content: artifact.content });
  const reference = artifactReferenceOf(
    state.run.id,
    { id, stage_id: stage.id, author_tag: agent.tag, title, media_type: artifact.media_type },
    findings,
  );
  const event = yield* emitEvent(state, "artifact.created", {
    work_item_id: item.id,
    artifact: reference,
  });
  yield* run(
    `INSERT INTO artifacts (run_id, id, seq, stage_position, stage_id, work_item_id, author_id, author_tag,
       title, media_type, content, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    state.run.id,
    id,
    event.seq,
    item.stage_position,
    stage.id,
    item.id,
    agent.agent_id,
    agent.tag,
    artifact.title ?? null,
    artifact.media_type,
    artifact.content,
    state.now,
  );
  return { id, findings };
}

/**
 * Stores the review a review item is completed with and announces its feedback, once the rules
 * find it judges the item's target artifact on each of the stage's criteria exactly once.
 */
function* storeReview(
  state: RunState,
  item: ItemRow,
  agent: AgentIdentity,
  review: NonNullable<Contract.CompleteBody["review"]>,
): SqlSteps<void> {
  const target = item.target_artifact_id ?? "";
  const issues = reviewIssues(target, stageOf(state, item).review_criteria ?? [], review);
  if (issues.length > 0) throw invalidCompletion(issues);
  const feedback: ReviewFeedback = {
    work_item_id: item.id,
    target_artifact_id: target,
    reviewer_tag: agent.tag,
    verdict: review.verdict,
    summary: review.summary,
    criteria: review.criteria,
  };
  yield* run(
    "INSERT INTO reviews (run_id, work_item_id, target_artifact_id, feedback, created_at) VALUES (?, ?, ?, ?, ?)",
    state.run.id,
    item.id,
    target,
    JSON.stringify(feedback),
    state.now,
  );
  yield* emitEvent(state, "review.feedback", { artifact_id: target, feedback });
}

// ---------------------------------------------------------------------------------------------
// Fail, expire, dead-letter, requeue

/** An agent gives its attempt up: the attempt fails and counts against the item's budget. */
export function* failItem(
  state: RunState,
  item: ItemRow,
  agent: AgentIdentity,
  body: Contract.FailBody,
): SqlSteps<Contract.FailureView> {
  const refusal = liveLeaseRefusal(item, agent, body.attempt);
  if (refusal !== undefined) throw refusal;
  yield* endAttempt(state, item, "failed", body.reason);
  const event = yield* emitEvent(state, "work_item.failed", {
    work_item_id: item.id,
    agent_tag: agent.tag,
    attempt: item.attempt,
    reason: body.reason,
  });
  const status = yield* countFailure(state, item);
  return {
    work_item_id: item.id,
    status,
    attempts_left: Math.max(0, state.run.max_attempts - item.failures - 1),
    event_id: event.id,
  };
}

/** Expires every overdue lease of the run: each is a failed attempt. */
export function* expireOverdueLeases(state: RunState): SqlSteps<void> {
  const overdue = yield* all<ItemRow>(
    `SELECT * FROM work_items WHERE run_id = ? AND status = '${leased}' AND lease_expires_at <= ?
     ORDER BY lease_expires_at, offered_seq`,
    state.run.id,
    state.now,
  );
  for (const item of overdue) {
    yield* run(
      `UPDATE attempts SET outcome = 'expired', ended_at = ?
       WHERE run_id = ? AND work_item_id = ? AND attempt = ?`,
      item.lease_expires_at,
      state.run.id,
      item.id,
      item.attempt,
    );
    yield* emitEvent(state, "work_item.lease_expired", {
      work_item_id: item.id,
      agent_tag: item.holder_tag ?? "",
      attempt: item.attempt,
    });
    yield* countFailure(state, item);
  }
}

/** Counts a failed or expired attempt: the item goes back on offer, or to the dead letters. */
function* countFailure(
  state: RunState,
  item: ItemRow,
): SqlSteps<typeof offered | typeof deadLettered> {
  const failures = item.failures + 1;
  const next = afterFailedAttempt(failures, state.run.max_attempts);
  if (next === offered) {
    yield* run(
      "UPDATE work_items SET failures = ?, lease_expires_at = NULL WHERE run_id = ? AND id = ?",
      failures,
      state.run.id,
      item.id,
    );
    yield* offerItem(state, item);
    return offered;
  }
  yield* run(
    `UPDATE work_items SET status = '${deadLettered}', failures = ?, lease_expires_at = NULL, dead_lettered_at = ?
     WHERE run_id = ? AND id = ?`,
    failures,
    state.now,
    state.run.id,
    item.id,
  );
  yield* emitEvent(state, "work_item.dead_lettered", {
    work_item_id: item.id,
    attempts: failures,
  });
  yield* updateRunStatus(state, item.id);
  return deadLettered;
}

/**
 * Puts a dead-lettered item back on offer with a fresh failure budget (`NOT_DEAD_LETTERED` for any
 * other item); the run resumes when it has no dead letter left.
 */
export function* requeueDeadLetter(state: RunState, workItemId: string): SqlSteps<WorkItem> {
  const runId = state.run.id;
  const item = yield* requireItem(runId, workItemId);
  if (item.status !== deadLettered) {
    throw new DeliveryError({
      code: "NOT_DEAD_LETTERED",
      message: `Work item ${item.id} is not dead-lettered (it is ${item.status.replace("_", " ")}); only dead letters can be requeued.`,
    });
  }
  yield* run(
    "UPDATE work_items SET failures = 0, dead_lettered_at = NULL WHERE run_id = ? AND id = ?",
    runId,
    item.id,
  );
  yield* emitEvent(state, "work_item.requeued", {
    work_item_id: item.id,
    attempt: item.attempt + 1,
  });
  yield* offerItem(state, item);
  yield* updateRunStatus(state, item.id);
  return yield* workItemView(state, yield* requireItem(runId, item.id));
}

/** The ids of the runs that hold a lease overdue at `now`. */
export function* runsWithOverdueLeases(now: number): SqlSteps<string[]> {
  return (yield* all<{ run_id: string }>(
    `SELECT DISTINCT run_id FROM work_items WHERE status = '${leased}' AND lease_expires_at <= ?`,
    now,
  )).map(({ run_id }) => run_id);
}

/** The earliest lease expiry of a run, in milliseconds, or undefined when nothing is leased. */
export function* nextLeaseExpiry(runId: string): SqlSteps<number | undefined> {
  const [row] = yield* all<{ next: number | null }>(
    `SELECT min(lease_expires_at) AS next FROM work_items WHERE run_id = ? AND status = '${leased}'`,
    runId,
  );
  return row?.next ?? undefined;
}

// ---------------------------------------------------------------------------------------------
// Attempts, run status, idempotency

/** How the item's current attempt ended so far, or undefined for an attempt never made. */
function* attemptOutcome(
  state: RunState,
  item: ItemRow,
): SqlSteps<Contract.AttemptRecord["outcome"] | undefined> {
  const [row] = yield* all<{ outcome: Contract.AttemptRecord["outcome"] }>(
    "SELECT outcome FROM attempts WHERE run_id = ? AND work_item_id = ? AND attempt = ?",
    state.run.id,
    item.id,
    item.attempt,
  );
  return row?.outcome;
}

/** Records how the item's current attempt ended, now (or, completed late, when its lease expired). */
function* endAttempt(
  state: RunState,
  item: ItemRow,
  outcome: Contract.AttemptRecord["outcome"],
  reason?: string,
): SqlSteps<void> {
  yield* run(
    `UPDATE attempts SET outcome = ?, reason = ?, ended_at = coalesce(ended_at, ?)
     WHERE run_id = ? AND work_item_id = ? AND attempt = ?`,
    outcome,
    reason ?? null,
    state.now,
    state.run.id,
    item.id,
    item.attempt,
  );
}

/** Sets the run's status (row and state). */
function* setRunStatus(state: RunState, status: RunStatus): SqlSteps<void> {
  yield* run("UPDATE runs SET status = ? WHERE id = ?", status, state.run.id);
  state.run.status = status;
}

/** Blocked while any item is dead-lettered, active again when none is (unless completed). */
function* updateRunStatus(state: RunState, workItemId: string): SqlSteps<void> {
  if (state.run.status === "completed") return;
  const [row] = yield* all<{ count: number }>(
    `SELECT count(*) AS count FROM work_items WHERE run_id = ? AND status = '${deadLettered}'`,
    state.run.id,
  );
  const status = runStatusFor(Number(row?.count ?? 0));
  if (status === state.run.status) return;
  yield* setRunStatus(state, status);
  yield* emitEvent(state, status === "blocked" ? "run.blocked" : "run.resumed", {
    work_item_id: workItemId,
  });
}

/**
 * Runs `operation` once per idempotency key of the agent in the run: the same key and request
 * answer the stored answer; the same key with another request is refused
 * (`IDEMPOTENCY_KEY_REUSED`). Without a key, it just runs.
 */
export function* runIdempotent<T>(
  state: RunState,
  agent: AgentIdentity,
  idempotency: IdempotencyKey | undefined,
  operation: () => SqlSteps<T>,
): SqlSteps<T> {
  if (idempotency === undefined) return yield* operation();
  const [stored] = yield* all<{ request_hash: string; response: string }>(
    "SELECT request_hash, response FROM idempotency_keys WHERE run_id = ? AND agent_id = ? AND key = ?",
    state.run.id,
    agent.agent_id,
    idempotency.key,
  );
  if (stored !== undefined) {
    if (stored.request_hash === idempotency.requestHash) return JSON.parse(stored.response) as T;
    throw new DeliveryError({
      code: "IDEMPOTENCY_KEY_REUSED",
      message: `Idempotency-Key "${idempotency.key}" was already used for another request. Use a new key for a new request, or resend the first request unchanged.`,
    });
  }
  const response = yield* operation();
  yield* run(
    "INSERT INTO idempotency_keys (run_id, agent_id, key, request_hash, response) VALUES (?, ?, ?, ?, ?)",
    state.run.id,
    agent.agent_id,
    idempotency.key,
    idempotency.requestHash,
    JSON.stringify(response),
  );
  return response;
}
