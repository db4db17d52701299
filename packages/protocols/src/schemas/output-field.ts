import * as z from "zod/mini";

/**
 * One field of a subagent's expected output format: the `output-format` of a subagent-context
 * document and the `outputFormat` of Sage's task data. Its type is `OutputField`.
 */
export const outputFieldSchema = z.strictObject({
  name: z.string().check(z.minLength(1)),
  description: z.string(),
});
