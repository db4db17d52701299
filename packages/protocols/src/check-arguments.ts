import { ArgumentError, type Tokenizer } from "@task-context/core";
import { describeArgument } from "@task-context/core/internal";
import { type SubagentTaskType, subagentTaskTypeSchema } from "./schemas/subagent-context.ts";

/** Returns `value` when it is a {@link Tokenizer}; throws {@link ArgumentError} otherwise. */
export function requireTokenizer(argument: string, value: unknown): Tokenizer {
  const tokenizer = value as Partial<Tokenizer> | null | undefined;
  if (typeof tokenizer?.count !== "function" || typeof tokenizer.truncate !== "function") {
    throw new ArgumentError({
      argument,
      message: `expected a Tokenizer (an object with count and truncate, such as approximateTokenizer), got ${describeArgument(value)}.`,
    });
  }
  return value as Tokenizer;
}

/** Returns `value` when it is a subagent type of Sage; throws {@link ArgumentError} otherwise. */
export function requireSubagentType(argument: string, value: unknown): SubagentTaskType {
  if (!subagentTaskTypeSchema.safeParse(value).success) {
    const shown = typeof value === "string" ? JSON.stringify(value) : describeArgument(value);
    throw new ArgumentError({
      argument,
      message: `expected one of ${subagentTaskTypeSchema.options.join(", ")}, got ${shown}.`,
    });
  }
  return value as SubagentTaskType;
}
