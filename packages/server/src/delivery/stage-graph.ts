import type { StageInput } from "@task-context/contract";
import type { ValidationIssue } from "@task-context/protocols";
import { DeliveryError } from "./delivery-error.ts";

/**
 * Checks that a run's stages form a graph the service can run: unique ids; a review stage names
 * an earlier task stage in `reviews` and has `review_criteria`; a task stage has neither.
 *
 * @throws {DeliveryError} `INVALID_STAGES`, with an issue per problem.
 */
export function checkStageGraph(stages: readonly StageInput[]): void {
  const issues: ValidationIssue[] = [];
  const kinds = new Map<string, "task" | "review">();
  stages.forEach((stage, index) => {
    const at = (field: string, message: string) =>
      issues.push({ path: `/stages/${index}${field}`, message });
    const kind = stage.kind ?? "task";
    if (kinds.has(stage.id)) {
      at(
        "/id",
        `stages[${index}].id "${stage.id}" is used by an earlier stage. Give each stage its own id.`,
      );
    }
    if (kind === "review") {
      if (stage.review_criteria === undefined) {
        at(
          "/review_criteria",
          `stages[${index}] is a review stage: give it review_criteria, what reviewers judge (e.g. ["logic", "readability"]).`,
        );
      }
      if (stage.items !== undefined) {
        at(
          "/items",
          `stages[${index}] is a review stage: it gets one item per artifact of the stage it reviews, so leave items out.`,
        );
      }
      if (stage.reviews === undefined) {
        at(
          "/reviews",
          `stages[${index}] is a review stage: set reviews to the id of an earlier task stage.`,
        );
      } else if (kinds.get(stage.reviews) !== "task") {
        const problem = kinds.has(stage.reviews) ? "is a review stage" : "is not an earlier stage";
        at(
          "/reviews",
          `stages[${index}].reviews "${stage.reviews}" ${problem}. Name an earlier task stage.`,
        );
      }
    } else {
      if (stage.reviews !== undefined) {
        at(
          "/reviews",
          `stages[${index}] is a task stage: reviews is for review stages (kind "review").`,
        );
      }
      if (stage.review_criteria !== undefined) {
        at(
          "/review_criteria",
          `stages[${index}] is a task stage: review_criteria is for review stages (kind "review").`,
        );
      }
    }
    if (!kinds.has(stage.id)) kinds.set(stage.id, kind);
  });
  if (issues.length > 0) {
    throw new DeliveryError({
      code: "INVALID_STAGES",
      message: "The run's stages do not form a graph the service can run. Fix the issues listed.",
      issues,
    });
  }
}
