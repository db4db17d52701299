import { ArgumentError } from "@task-context/core";
import { describeArgument } from "@task-context/core/internal";

/** Returns `value` when it is a boolean or undefined; throws `ArgumentError` otherwise. */
export function optionalBoolean(argument: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== "boolean") {
    throw new ArgumentError({
      argument,
      message: `expected true, false or undefined, got ${describeArgument(value)}.`,
    });
  }
  return value;
}
