import type { CallToolResult } from "@modelcontextprotocol/server";
import { checkValue } from "@task-context/protocols/internal";
import type * as z from "zod";
import { InvalidToolArgumentsError } from "./invalid-tool-arguments-error.ts";
import { toolError } from "./tool-error.ts";

/**
 * A tool's callback that checks its arguments against `schema` first (every problem at its JSON
 * Pointer) and turns every refusal, from the arguments or from `run`, into the one tool-error
 * shape of {@link toolError}. Register the tool with `publishedSchema(schema)` as its input schema.
 */
export function checkedToolCall<Schema extends z.ZodType>(
  tool: string,
  schema: Schema,
  run: (args: z.output<Schema>) => Promise<CallToolResult>,
): (args: unknown) => Promise<CallToolResult> {
  return async (args) => {
    const checked = checkValue(schema, args ?? {}, { root: "arguments" });
    if (!checked.valid) {
      return toolError(new InvalidToolArgumentsError({ tool, issues: checked.issues }));
    }
    try {
      return await run(checked.data as z.output<Schema>);
    } catch (error) {
      return toolError(error, tool);
    }
  };
}
