import * as z from "zod/mini";

/** The result a subagent returns (the Sage output format). Keys are the wire names. */
export const subagentOutputSchema = z
  .strictObject({
    status: z.enum(["success", "failure", "blocked"]),
    summary: z.string().check(z.describe("Brief description of result")),
    "files-modified": z.array(z.string()).check(z.describe("List of files changed")),
    notes: z.optional(z.string().check(z.describe("Additional context"))),
    "recommended-action": z.optional(z.string().check(z.describe("Next step suggestion"))),
  })
  .check(z.meta({ title: "Subagent output" }));

/** A subagent's result. */
export type SubagentOutput = z.infer<typeof subagentOutputSchema>;
