import { z } from "zod";

/** What a reviewer needs (spec 003, "Cross-agent review context" and "Review criteria propagation"). */
export const reviewContextSchema = z
  .strictObject({
    target_artifact_id: z.string().min(1).describe("The artifact to review"),
    target_author_tag: z.string().min(1).describe("The agent that wrote it"),
    review_criteria: z
      .array(z.string().min(1))
      .min(1)
      .describe(
        "What to evaluate (e.g. creativity, logic, readability), from the task configuration",
      ),
  })
  .meta({ title: "Review context" });

/** Review context. */
export type ReviewContext = z.infer<typeof reviewContextSchema>;
