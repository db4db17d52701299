import { z } from "zod";
import { artifactReferenceSchema } from "./artifact.ts";
import { reviewContextSchema } from "./review-context.ts";
import { stageContextSchema } from "./stage-context.ts";

const workItemFields = {
  id: z.string().min(1),
  run_id: z.string().min(1),
  stage_id: z.string().min(1),
  goal: z.string().min(1).describe("The run's goal, on every work item"),
  constraints: z.array(z.string()).describe("The run's constraints, on every work item"),
  stage_context: stageContextSchema,
  previous_artifacts: z
    .array(artifactReferenceSchema)
    .describe("Artifacts of the stages before this one"),
  available_skills: z.array(z.string().min(1)).describe("Skills and tools the agent can invoke"),
  attempt: z.int().min(1).describe("Delivery attempt; completions must quote it"),
};

/**
 * A unit of work delivered to an agent's inbox (spec 003): the run's goal and constraints, the
 * stage's context, earlier artifacts, the skills on offer and, for a review, what to review.
 */
export const workItemSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("task"), ...workItemFields }),
    z.strictObject({
      kind: z.literal("review"),
      ...workItemFields,
      review_context: reviewContextSchema,
    }),
  ])
  .meta({ title: "Work item" });

/** A work item. */
export type WorkItem = z.infer<typeof workItemSchema>;
