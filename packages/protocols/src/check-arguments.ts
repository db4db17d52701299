import { ArgumentError } from "@task-context/core";
import { describeArgument } from "@task-context/core/internal";
import { type SubagentTaskType, subagentTaskTypeSchema } from "./schemas/subagent-context.ts";

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
