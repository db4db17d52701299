import * as z from "zod/mini";
import { artifactReferenceSchema } from "./artifact.ts";
import { contextSha256Schema } from "./context-sha256.ts";
import { reviewContextSchema } from "./review-context.ts";
import { stageContextSchema } from "./stage-context.ts";
import { traceContextSchema } from "./trace-context.ts";

const identifier = z.string().check(z.minLength(1));

const workItemFields = {
  id: identifier,
  run_id: identifier,
  stage_id: identifier,
  goal: identifier.check(z.describe("The run's goal, on every work item")),
  constraints: z.array(z.string()).check(z.describe("The run's constraints, on every work item")),
  stage_context: stageContextSchema,
  previous_artifacts: z
    .array(artifactReferenceSchema)
    .check(z.describe("Artifacts of the stages before this one")),
  available_skills: z.array(identifier).check(z.describe("Skills and tools the agent can invoke")),
  attempt: z.int().check(z.gte(1), z.describe("Delivery attempt; completions must quote it")),
  context_sha256: z.optional(
    contextSha256Schema.check(
      z.describe(
        "The receipt: SHA-256 of the run context this item was built from (runContextSha256: goal, constraints, stage_context); a completion may quote it back",
      ),
    ),
  ),
  trace_context: z.optional(
    traceContextSchema.check(
      z.describe(
        "The W3C trace context of the run (traceparent, tracestate), when it was created with a traceparent header and the service traces: an agent continues the run's trace from it",
      ),
    ),
  ),
};

/**
 * A unit of work delivered to an agent's inbox: the run's goal and constraints, the stage's
 * context, earlier artifacts, the skills on offer and, for a review, what to review.
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
  .check(z.meta({ title: "Work item" }));

/** A work item. */
export type WorkItem = z.infer<typeof workItemSchema>;
