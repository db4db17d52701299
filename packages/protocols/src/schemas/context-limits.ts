import { z } from "zod";
import { subagentTaskTypeSchema } from "./subagent-context.ts";

const tokenCount = z.int().positive();

/** Token limits for one subagent type (spec 002, step 1). */
export const contextLimitsSchema = z.strictObject({
  max_total: tokenCount.describe("Most tokens in the whole document"),
  max_file_content: tokenCount.describe("Most tokens in one file-content, story or standards item"),
  max_prior_output: tokenCount.describe("Most tokens in one prior-output item"),
});

/**
 * `.sage/config/context-limits.yaml`: defaults plus per-subagent-type overrides of any limit.
 *
 * ```yaml
 * defaults:
 *   max_total: 8000
 *   max_file_content: 2000
 *   max_prior_output: 1000
 * overrides:
 *   review:
 *     max_total: 12000
 * ```
 */
export const contextLimitsConfigSchema = z
  .strictObject({
    defaults: contextLimitsSchema.partial().optional(),
    overrides: z
      .partialRecord(subagentTaskTypeSchema, contextLimitsSchema.partial())
      .optional()
      .describe("Limits per subagent type (implement, test, fix, review, plan)"),
  })
  .meta({ title: "Sage context limits" });

/** Resolved limits for one subagent type. */
export type ContextLimits = z.infer<typeof contextLimitsSchema>;
/** The parsed context-limits file. */
export type ContextLimitsConfig = z.infer<typeof contextLimitsConfigSchema>;
