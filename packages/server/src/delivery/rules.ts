// The delivery rules, as pure functions over a work item's state: who may claim, heartbeat, fail
// or complete which attempt; whether a completion fits its item; whether a review is about the
// item's artifact, by the stage's criteria; what a failed or expired attempt leads to. Every store
// applies these and only writes down their outcome.

import type * as Contract from "@task-context/contract";
import type { ValidationIssue } from "@task-context/protocols";
import { DeliveryError } from "./delivery-error.ts";
import type { AgentIdentity } from "./delivery-store.ts";

/** A work item's status: the one list, interpolated into the stores' SQL. */
export const itemStatus = {
  offered: "offered",
  leased: "leased",
  completed: "completed",
  deadLettered: "dead_lettered",
} as const;

/**
 * Whether an event is the last a run has: `run.completed`, or `run.canceled` (after it nothing
 * is accepted). Event streams and long polls end after it.
 */
export function endsRun(type: string): boolean {
  return type === "run.completed" || type === "run.canceled";
}

/** A work item's status. */
export type ItemStatus = (typeof itemStatus)[keyof typeof itemStatus];

/** What the rules look at in a work item. */
export interface ItemState {
  id: string;
  kind: "task" | "review";
  status: ItemStatus;
  /** The current (or last) attempt; 0 before the first claim. */
  attempt: number;
  /** Failed and expired attempts since the item was (re)queued. */
  failures: number;
  /** The agent holding (or that last held) the lease. */
  holder_id: string | null;
  /** Review items: the artifact under review and its author. */
  target_artifact_id: string | null;
  target_author_id: string | null;
}

/** A review item is never claimed by the author of the artifact it reviews. */
export function isOwnWork(item: ItemState, agent: AgentIdentity): boolean {
  return item.kind === "review" && item.target_author_id === agent.agent_id;
}

/** Why `agent` may not claim this item by its id, or undefined when it may. */
export function claimRefusal(item: ItemState, agent: AgentIdentity): DeliveryError | undefined {
  if (isOwnWork(item, agent)) {
    return new DeliveryError({
      code: "SELF_REVIEW",
      message: `Work item ${item.id} reviews your own artifact ${item.target_artifact_id}: another agent must review it. Claim another item.`,
    });
  }
  if (item.status === itemStatus.offered) return undefined;
  const why = {
    leased: "another agent holds its lease",
    completed: "it is completed",
    dead_lettered: "it is dead-lettered (an admin can requeue it)",
  }[item.status];
  return new DeliveryError({
    code: "NOT_ON_OFFER",
    message: `Work item ${item.id} is not on offer: ${why}. Poll the inbox for items you can claim.`,
  });
}

/**
 * Heartbeats and failures need the item's current attempt, leased to this agent now: the error
 * that refuses them, or undefined.
 */
export function liveLeaseRefusal(
  item: ItemState,
  agent: AgentIdentity,
  attempt: number,
): DeliveryError | undefined {
  if (item.status === itemStatus.completed) {
    return new DeliveryError({
      code: "ALREADY_COMPLETED",
      message: `Work item ${item.id} is already completed. Poll the inbox for more work.`,
    });
  }
  const current = item.attempt === attempt && item.holder_id === agent.agent_id;
  return current && item.status === itemStatus.leased ? undefined : leaseLost(item, agent, attempt);
}

/**
 * A completion needs the item's current attempt, held by this agent: a live lease, or one that
 * expired while nobody else claimed the item (the work is done; accepting it loses nothing).
 * `outcome` is how the attempt ended so far (`"expired"` for a lease that ran out).
 */
export function completionRefusal(
  item: ItemState,
  agent: AgentIdentity,
  attempt: number,
  outcome: Contract.AttemptRecord["outcome"] | undefined,
): DeliveryError | undefined {
  if (item.status === itemStatus.completed) {
    return new DeliveryError({
      code: "ALREADY_COMPLETED",
      message: `Work item ${item.id} is already completed; a second completion is refused. Poll the inbox for more work.`,
    });
  }
  const current = item.attempt === attempt && item.holder_id === agent.agent_id;
  if (current && (item.status === itemStatus.leased || outcome === "expired")) return undefined;
  return leaseLost(item, agent, attempt);
}

/** `LEASE_LOST`, saying why the attempt is no longer current. */
function leaseLost(item: ItemState, agent: AgentIdentity, attempt: number): DeliveryError {
  let why: string;
  if (item.attempt === 0) why = "nobody has claimed it yet";
  else if (item.attempt !== attempt) {
    why = `its current attempt is ${item.attempt}${item.holder_id === agent.agent_id ? "" : ", held by another agent"}`;
  } else if (item.holder_id !== agent.agent_id) why = "another agent holds it";
  else why = "its lease expired";
  const state =
    item.status === itemStatus.leased ? "" : `; the item is ${item.status.replace("_", " ")}`;
  return new DeliveryError({
    code: "LEASE_LOST",
    message: `Attempt ${attempt} of work item ${item.id} is no longer current (${why}${state}). Stop working on it and poll the inbox.`,
  });
}

/** A task item is completed with an artifact, a review item with a review: never both. */
export function completionKindIssues(
  item: Pick<ItemState, "id" | "kind">,
  body: Contract.CompleteBody,
): ValidationIssue[] {
  const [wanted, unwanted] =
    item.kind === "task" ? (["artifact", "review"] as const) : (["review", "artifact"] as const);
  const issues: ValidationIssue[] = [];
  if (body[unwanted] !== undefined) {
    issues.push({
      path: `/${unwanted}`,
      message: `Work item ${item.id} is a ${item.kind} item: complete it with ${wanted === "artifact" ? "an artifact" : "a review"}, not ${unwanted === "artifact" ? "an artifact" : "a review"}.`,
    });
  }
  if (body[wanted] === undefined) {
    issues.push({
      path: `/${wanted}`,
      message:
        wanted === "artifact"
          ? "artifact is required for a task item: { media_type, content, title? }, what the stage asked for."
          : "review is required for a review item: { verdict, summary, criteria: [{ criterion, comment, score? }] }.",
    });
  }
  return issues;
}

/**
 * A review judges the item's target artifact (`target`) on each of the review stage's `criteria`
 * exactly once: the issues that say where it does not.
 */
export function reviewIssues(
  target: string,
  criteria: readonly string[],
  review: NonNullable<Contract.CompleteBody["review"]>,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (review.target_artifact_id !== undefined && review.target_artifact_id !== target) {
    issues.push({
      path: "/review/target_artifact_id",
      message: `review.target_artifact_id must be ${target}, the artifact this item reviews, not ${review.target_artifact_id}.`,
    });
  }
  const seen = new Set<string>();
  review.criteria.forEach(({ criterion }, index) => {
    if (!criteria.includes(criterion)) {
      issues.push({
        path: `/review/criteria/${index}/criterion`,
        message: `review.criteria[${index}].criterion "${criterion}" is not a criterion of this review. The criteria are: ${criteria.join(", ")}.`,
      });
    } else if (seen.has(criterion)) {
      issues.push({
        path: `/review/criteria/${index}/criterion`,
        message: `review.criteria[${index}].criterion "${criterion}" is judged twice. Give one entry per criterion.`,
      });
    }
    seen.add(criterion);
  });
  const missing = criteria.filter((criterion) => !seen.has(criterion));
  if (missing.length > 0) {
    issues.push({
      path: "/review/criteria",
      message: `review.criteria has no entry for ${missing.map((name) => `"${name}"`).join(", ")}. Give one entry per criterion of the review context.`,
    });
  }
  return issues;
}

/** `INVALID_COMPLETION` with the issues that make the completion not fit its work item. */
export function invalidCompletion(issues: ValidationIssue[]): DeliveryError {
  return new DeliveryError({
    code: "INVALID_COMPLETION",
    message: "The completion does not fit the work item. Fix the issues listed.",
    issues,
  });
}

/**
 * Where a failed or expired attempt leaves its item: back on offer while the run's attempt budget
 * lasts, else among the dead letters.
 */
export function afterFailedAttempt(
  failures: number,
  maxAttempts: number,
): typeof itemStatus.offered | typeof itemStatus.deadLettered {
  return failures < maxAttempts ? itemStatus.offered : itemStatus.deadLettered;
}

/** A run is blocked while any of its items is dead-lettered, active again when none is. */
export function runStatusFor(deadLetters: number): "blocked" | "active" {
  return deadLetters > 0 ? "blocked" : "active";
}

/** The attempt a work item shows: the current (or last) lease's; on offer, the one a claim starts. */
export function shownAttempt(item: Pick<ItemState, "status" | "attempt">): number {
  return item.status === itemStatus.offered ? item.attempt + 1 : Math.max(1, item.attempt);
}
