import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type * as z from "zod";

/**
 * `schema` as the SDK publishes it (the same JSON Schema in `tools/list` and `prompts/list`),
 * with the SDK's own check turned into a pass-through: the handler checks the arguments itself
 * ({@link checkValue} of `@task-context/protocols/internal`), so that a refusal carries
 * task-context's wording and JSON Pointers instead of zod's.
 */
export function publishedSchema(
  schema: z.ZodType,
): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    "~standard": {
      version: 1,
      vendor: "task-context",
      validate: (value) => ({ value: value as Record<string, unknown> }),
      jsonSchema: schema["~standard"].jsonSchema,
    },
  };
}
