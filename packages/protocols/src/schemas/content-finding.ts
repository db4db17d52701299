import * as z from "zod/mini";

/**
 * A passage of stored text that poses as instructions or as a task-context format (core's
 * `findPosingText`): where it is and what kind. The delivery service stores text exactly as sent,
 * so it reports such passages instead of changing them.
 */
export const contentFindingSchema = z
  .strictObject({
    path: z
      .string()
      .check(
        z.describe(
          "JSON Pointer of the text within the artifact or the review that holds the passage, e.g. /content, /title, /summary, /criteria/0/comment",
        ),
      ),
    kind: z
      .string()
      .check(
        z.minLength(1),
        z.describe(
          "Stable kebab-case kind: task-context-header, context-tag, subagent-context-tag, system-tag, unicode-tag-characters, bidi-override, zero-width-run",
        ),
      ),
    line: z.int().check(z.gte(1), z.describe("1-based line of the text where the passage starts")),
    column: z
      .int()
      .check(z.gte(1), z.describe("1-based column (UTF-16 units) where the passage starts")),
  })
  .check(z.meta({ title: "Content finding" }));

/** A passage of stored text that poses as instructions or as a task-context format. */
export type ContentFinding = z.infer<typeof contentFindingSchema>;
