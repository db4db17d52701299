import { z } from "zod";

/** A task id that is safe as a file name: `.sage/context/{taskId}.xml` never leaves its folder. */
export const taskIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
    "must start with a letter or digit and use only letters, digits, '.', '_' and '-' (at most 128 characters)",
  );

/** The kinds of subagent task of spec 002. */
export const subagentTaskTypeSchema = z.enum(["implement", "test", "fix", "review", "plan"]);

/** One field of the expected output format. */
export const outputFieldSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string(),
});

/** One `<item type="…">` of the `<context>` section. */
export const contextItemSchema = z.strictObject({
  type: z
    .string()
    .min(1)
    .describe(
      "story-excerpt, code-standards, prior-output, file-content, file-reference, or another kind",
    ),
  content: z.string(),
  path: z.string().optional().describe("The file the item comes from or refers to"),
});

/**
 * The Sage `<subagent-context version="1.0">` document of spec 002, step 2. Keys are the XML
 * element names.
 */
export const subagentContextSchema = z
  .strictObject({
    version: z.literal("1.0"),
    task: z.strictObject({
      id: taskIdSchema,
      type: subagentTaskTypeSchema,
      description: z.string(),
      "story-ref": z.string().optional(),
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
  .meta({ title: "Sage subagent-context document" });

/** A Sage `<subagent-context>` document. */
export type SubagentContext = z.infer<typeof subagentContextSchema>;
/** One context item. */
export type ContextItem = z.infer<typeof contextItemSchema>;
/** A subagent task type. */
export type SubagentTaskType = z.infer<typeof subagentTaskTypeSchema>;
