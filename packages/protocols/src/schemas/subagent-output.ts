import * as z from "zod/mini";
import { contextSha256Schema } from "./context-sha256.ts";

/** The result a subagent returns (the Sage output format). Keys are the wire names. */
export const subagentOutputSchema = z
  .strictObject({
    status: z.enum(["success", "failure", "blocked"]),
    summary: z.string().check(z.describe("Brief description of result")),
    "files-modified": z.array(z.string()).check(z.describe("List of files changed")),
    notes: z.optional(z.string().check(z.describe("Additional context"))),
    "recommended-action": z.optional(z.string().check(z.describe("Next step suggestion"))),
    "context-sha256": z.optional(
      contextSha256Schema.check(
        z.describe(
          "The receipt: the SHA-256 of the CONTEXT.md the subagent worked from, as its result's contextSha256 or the context file gave it; a stale one gets a warning",
        ),
      ),
    ),
  })
  .check(z.meta({ title: "Subagent output" }));

/** A subagent's result. */
export type SubagentOutput = z.infer<typeof subagentOutputSchema>;
