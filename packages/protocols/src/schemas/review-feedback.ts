import { z } from "zod";

/** A reviewer's feedback on an artifact (spec 003, "Agent submits review feedback"). */
export const reviewFeedbackSchema = z
  .strictObject({
    work_item_id: z.string().min(1),
    target_artifact_id: z.string().min(1),
    reviewer_tag: z.string().min(1),
    verdict: z.enum(["approve", "request_changes", "comment"]),
    summary: z.string(),
    criteria: z
      .array(
        z.strictObject({
          criterion: z.string().min(1),
          score: z.number().min(0).max(10).optional(),
          comment: z.string(),
        }),
      )
      .describe("One entry per review criterion of the review context"),
  })
  .meta({ title: "Review feedback" });

/** Review feedback. */
export type ReviewFeedback = z.infer<typeof reviewFeedbackSchema>;
