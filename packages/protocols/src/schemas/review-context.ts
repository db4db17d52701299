import * as z from "zod/mini";

/** What a reviewer needs: the artifact to review, its author and the criteria to judge it by. */
export const reviewContextSchema = z
  .strictObject({
    target_artifact_id: z.string().check(z.minLength(1), z.describe("The artifact to review")),
    target_author_tag: z.string().check(z.minLength(1), z.describe("The agent that wrote it")),
    review_criteria: z
      .array(z.string().check(z.minLength(1)))
      .check(
        z.minLength(1),
        z.describe(
          "What to evaluate (e.g. creativity, logic, readability), from the task configuration",
        ),
      ),
  })
  .check(z.meta({ title: "Review context" }));

/** Review context. */
export type ReviewContext = z.infer<typeof reviewContextSchema>;
