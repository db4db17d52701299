import { z } from "zod";

/** The result a subagent returns (spec 002's output format). Keys are the spec's field names. */
export const subagentOutputSchema = z
  .strictObject({
    status: z.enum(["success", "failure", "blocked"]),
    summary: z.string().describe("Brief description of result"),
    "files-modified": z.array(z.string()).describe("List of files changed"),
    notes: z.string().optional().describe("Additional context"),
    "recommended-action": z.string().optional().describe("Next step suggestion"),
  })
  .meta({ title: "Subagent output" });

/** A subagent's result. */
export type SubagentOutput = z.infer<typeof subagentOutputSchema>;
