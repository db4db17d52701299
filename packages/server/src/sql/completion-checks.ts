import type { ValidationIssue } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { AgentIdentity } from "../delivery/delivery-store.ts";
import type { RunState } from "./run-state.ts";
import type { ItemRow } from "./sql-rows.ts";

/** A completion in progress: the item, its stage and the agent completing it. */
export interface Completing {
  state: RunState;
  item: ItemRow;
  stage: Contract.StageInput;
  agent: AgentIdentity;
}

/** A task item is completed with an artifact, a review item with a review: never both. */
export function completionKindIssues(
  item: Pick<ItemRow, "id" | "kind">,
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

/** `INVALID_COMPLETION` with the issues that make the completion not fit its work item. */
export function invalidCompletion(issues: ValidationIssue[]): DeliveryError {
  return new DeliveryError({
    code: "INVALID_COMPLETION",
    message: "The completion does not fit the work item. Fix the issues listed.",
    issues,
  });
}
