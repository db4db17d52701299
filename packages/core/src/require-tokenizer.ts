import { describeArgument } from "./arguments.ts";
import { ArgumentError } from "./errors/argument-error.ts";
import type { Tokenizer } from "./tokenizer.ts";

/** Returns `value` when it has a Tokenizer's `count` and `truncate`; throws ArgumentError otherwise. */
export function requireTokenizer(argument: string, value: unknown): Tokenizer {
  const { count, truncate } = (value ?? {}) as Partial<Tokenizer>;
  if (typeof value !== "object" || typeof count !== "function" || typeof truncate !== "function") {
    throw new ArgumentError({
      argument,
      message: `expected a Tokenizer with count and truncate (approximateTokenizer, o200kTokenizer or your own), got ${describeArgument(value)}.`,
    });
  }
  return value as Tokenizer;
}
