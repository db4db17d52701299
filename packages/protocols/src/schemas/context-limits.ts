import * as z from "zod/mini";
import { subagentTaskTypeSchema } from "./subagent-context.ts";

const tokenCount = z.int().check(z.positive());

/** Token limits for one subagent type. */
export const contextLimitsSchema = z.strictObject({
  max_total: tokenCount.check(z.describe("Most tokens in the whole document")),
  max_file_content: tokenCount.check(
    z.describe("Most tokens in one file-content, story or standards item"),
  ),
  max_prior_output: tokenCount.check(z.describe("Most tokens in one prior-output item")),
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
    defaults: z.optional(z.partial(contextLimitsSchema)),
    overrides: z.optional(
      z
        .partialRecord(subagentTaskTypeSchema, z.partial(contextLimitsSchema))
        .check(z.describe("Limits per subagent type (implement, test, fix, review, plan)")),
    ),
  })
  .check(
    z.meta({
      title: "Sage context limits",
      description:
        'The limits file .sage/config/context-limits.yaml: defaults, and overrides per subagent type. "__proto__" is not a subagent type: this schema and validate() refuse it, where the zod schema alone drops such a key.',
    }),
  );

/** Resolved limits for one subagent type. */
export type ContextLimits = z.infer<typeof contextLimitsSchema>;
/** The parsed context-limits file. */
export type ContextLimitsConfig = z.infer<typeof contextLimitsConfigSchema>;
