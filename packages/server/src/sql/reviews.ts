import type { ReviewFeedback, ValidationIssue } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import { type Completing, invalidCompletion } from "./completion-checks.ts";
import { emitEvent } from "./run-events.ts";
import type { SqlDatabase } from "./sql-database.ts";

/**
 * Stores the review a review item is completed with and announces its feedback, after checking
 * it judges the item's target artifact on each of the stage's criteria exactly once.
 */
export function storeReview(
  database: SqlDatabase,
  { state, item, stage, agent }: Completing,
  review: NonNullable<Contract.CompleteBody["review"]>,
): void {
  const issues: ValidationIssue[] = [];
  const target = item.target_artifact_id ?? "";
  if (review.target_artifact_id !== undefined && review.target_artifact_id !== target) {
    issues.push({
      path: "/review/target_artifact_id",
      message: `review.target_artifact_id must be ${target}, the artifact this item reviews, not ${review.target_artifact_id}.`,
    });
  }
  const expected = stage.review_criteria ?? [];
  const seen = new Set<string>();
  review.criteria.forEach(({ criterion }, index) => {
    if (!expected.includes(criterion)) {
      issues.push({
        path: `/review/criteria/${index}/criterion`,
        message: `review.criteria[${index}].criterion "${criterion}" is not a criterion of this review. The criteria are: ${expected.join(", ")}.`,
      });
    } else if (seen.has(criterion)) {
      issues.push({
        path: `/review/criteria/${index}/criterion`,
        message: `review.criteria[${index}].criterion "${criterion}" is judged twice. Give one entry per criterion.`,
      });
    }
    seen.add(criterion);
  });
  const missing = expected.filter((criterion) => !seen.has(criterion));
  if (missing.length > 0) {
    issues.push({
      path: "/review/criteria",
      message: `review.criteria has no entry for ${missing.map((name) => `"${name}"`).join(", ")}. Give one entry per criterion of the review context.`,
    });
  }
  if (issues.length > 0) throw invalidCompletion(issues);
  const feedback: ReviewFeedback = {
    work_item_id: item.id,
    target_artifact_id: target,
    reviewer_tag: agent.tag,
    verdict: review.verdict,
    summary: review.summary,
    criteria: review.criteria,
  };
  database.run(
    "INSERT INTO reviews (run_id, work_item_id, target_artifact_id, feedback, created_at) VALUES (?, ?, ?, ?, ?)",
    state.run.id,
    item.id,
    target,
    JSON.stringify(feedback),
    state.now,
  );
  emitEvent(database, state, "review.feedback", { artifact_id: target, feedback });
}
