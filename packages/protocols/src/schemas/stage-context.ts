import { z } from "zod";

/** Stage-specific context in a work item (spec 003, "Stage context in work item"). */
export const stageContextSchema = z
  .strictObject({
    stage_description: z.string().min(1).describe("What this stage of the run is for"),
    expected_output: z.string().min(1).describe("The format and content the stage must produce"),
    available_skills: z
      .array(z.string().min(1))
      .describe("Skills the agent may invoke in this stage"),
    background: z.string().optional().describe("Relevant background information for the stage"),
  })
  .meta({ title: "Stage context" });

/** Stage context. */
export type StageContext = z.infer<typeof stageContextSchema>;
