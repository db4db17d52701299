import { ArgumentError } from "@task-context/core";
import { describeArgument } from "@task-context/core/internal";
import type { z } from "zod";

/** The value at `path` inside `input`, or `undefined` where the path leads nowhere. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** How a refused value looks in the message: short strings are quoted, long ones measured. */
function describeValue(value: unknown): string {
  if (typeof value !== "string" || value === "") return describeArgument(value);
  return value.length <= 40 ? JSON.stringify(value) : `a string of ${value.length} characters`;
}

/**
 * Checks what the model (or a direct caller) passed to a tool against the tool's input schema,
 * and returns the parsed input. The AI SDK checks it too inside `generateText`, but `execute` can
 * be called directly with anything. Throws core's {@link ArgumentError} for the first problem,
 * named by its field (`prompt`, `size`, or `input` for the whole value): `Invalid prompt: expected
 * a non-empty string of at most 100000 characters, got the empty string.`
 */
export function parseToolInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const path = issue?.path ?? [];
  throw new ArgumentError({
    argument: path.length === 0 ? "input" : path.map(String).join("."),
    message: `${issue?.message ?? "expected the tool's parameters"}, got ${describeValue(valueAt(input, path))}.`,
  });
}
