import * as z from "zod/mini";

const identifier = z.string().check(z.minLength(1));

/** A reviewer's feedback on an artifact, emitted on the run's collaboration stream. */
export const reviewFeedbackSchema = z
  .strictObject({
    work_item_id: identifier,
    target_artifact_id: identifier,
    reviewer_tag: identifier,
    verdict: z.enum(["approve", "request_changes", "comment"]),
    summary: z.string(),
    criteria: z
      .array(
        z.strictObject({
          criterion: identifier,
          score: z.optional(z.number().check(z.gte(0), z.lte(10))),
          comment: z.string(),
        }),
      )
      .check(z.describe("One entry per review criterion of the review context")),
  })
  .check(z.meta({ title: "Review feedback" }));

/** Review feedback. */
export type ReviewFeedback = z.infer<typeof reviewFeedbackSchema>;
