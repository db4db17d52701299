import * as z from "zod/mini";

/** Stage-specific context in a work item: what the stage is for and what it must produce. */
export const stageContextSchema = z
  .strictObject({
    stage_description: z
      .string()
      .check(z.minLength(1), z.describe("What this stage of the run is for")),
    expected_output: z
      .string()
      .check(z.minLength(1), z.describe("The format and content the stage must produce")),
    available_skills: z
      .array(z.string().check(z.minLength(1)))
      .check(z.describe("Skills the agent may invoke in this stage")),
    background: z.optional(
      z.string().check(z.describe("Relevant background information for the stage")),
    ),
  })
  .check(z.meta({ title: "Stage context" }));

/** Stage context. */
export type StageContext = z.infer<typeof stageContextSchema>;
