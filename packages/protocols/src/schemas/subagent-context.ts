import * as z from "zod/mini";
import { outputFieldSchema } from "./output-field.ts";

// Every export of this file is public: the root and the sage entry point re-export it whole.

/** A task id that is safe as a file name: `.sage/context/{taskId}.xml` never leaves its folder. */
export const taskIdSchema = z
  .string()
  .check(
    z.regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
      "must start with a letter or digit and use only letters, digits, '.', '_' and '-' (at most 128 characters)",
    ),
  );

/** The kinds of subagent task Sage knows. */
export const subagentTaskTypeSchema = z.enum(["implement", "test", "fix", "review", "plan"]);

/** One `<item type="…">` of the `<context>` section. */
export const contextItemSchema = z.strictObject({
  type: z
    .string()
    .check(
      z.minLength(1),
      z.describe(
        "story-excerpt, code-standards, prior-output, file-content, file-reference, or another kind",
      ),
    ),
  content: z.string(),
  path: z.optional(z.string().check(z.describe("The file the item comes from or refers to"))),
  source: z.optional(
    z
      .string()
      .check(
        z.describe(
          "Where earlier work came from (a subagent, a stage, an agent), e.g. subagent implement-2; shown in the warning",
        ),
      ),
  ),
  untrusted: z.optional(
    z
      .literal(true)
      .check(
        z.describe(
          "Earlier work, delivered as data: its content is neutralised (text posing as instructions or as a task-context format made inert). Always set on prior-output items",
        ),
      ),
  ),
});

/** The Sage `<subagent-context version="1.0">` document. Keys are the XML element names. */
export const subagentContextSchema = z
  .strictObject({
    version: z.literal("1.0"),
    task: z.strictObject({
      id: taskIdSchema,
      type: subagentTaskTypeSchema,
      description: z.string(),
      "story-ref": z.optional(z.string()),
    }),
    instructions: z.array(z.string()),
    scope: z.strictObject({
      "files-to-modify": z.array(z.string()),
      "files-to-read": z.array(z.string()),
      "files-forbidden": z.array(z.string()),
    }),
    context: z.array(contextItemSchema),
    "output-format": z.strictObject({
      "required-fields": z.array(outputFieldSchema),
      "optional-fields": z.array(outputFieldSchema),
    }),
  })
  .check(z.meta({ title: "Sage subagent-context document" }));

/** A Sage `<subagent-context>` document. */
export type SubagentContext = z.infer<typeof subagentContextSchema>;
/** One context item. */
export type ContextItem = z.infer<typeof contextItemSchema>;
/** One field of the expected output format. */
export type OutputField = z.infer<typeof outputFieldSchema>;
/** A subagent task type. */
export type SubagentTaskType = z.infer<typeof subagentTaskTypeSchema>;
