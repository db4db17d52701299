import { ArgumentError } from "./errors/argument-error.ts";

/** How a value looks in an argument error: `null`, `a number (NaN)`, `an array`, `the empty string`. */
export function describeArgument(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value === "" ? "the empty string" : "a string";
  if (typeof value === "number") return `a number (${String(value)})`;
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** Returns `value` when it is a non-empty string; throws {@link ArgumentError} otherwise. */
export function requireText(argument: string, value: unknown, what = "a non-empty string"): string {
  if (typeof value !== "string" || value === "") {
    throw new ArgumentError({
      argument,
      message: `expected ${what}, got ${describeArgument(value)}.`,
    });
  }
  return value;
}

/** Returns `value` when it is a string (possibly empty); throws {@link ArgumentError} otherwise. */
export function requireString(argument: string, value: unknown): string {
  if (typeof value !== "string") {
    throw new ArgumentError({
      argument,
      message: `expected a string, got ${describeArgument(value)}.`,
    });
  }
  return value;
}

/**
 * Returns `value` when it is a whole number in `[minimum, maximum]`; throws {@link ArgumentError}
 * otherwise.
 */
export function requireWholeNumber(
  argument: string,
  value: unknown,
  minimum = 0,
  maximum = Number.MAX_SAFE_INTEGER,
): number {
  if (
    typeof value !== "number" ||
    !Number.isSafeInteger(value) ||
    value < minimum ||
    value > maximum
  ) {
    const range =
      maximum === Number.MAX_SAFE_INTEGER ? `≥ ${minimum}` : `from ${minimum} to ${maximum}`;
    throw new ArgumentError({
      argument,
      message: `expected a whole number ${range}, got ${describeArgument(value)}.`,
    });
  }
  return value;
}

/** Returns `value` when it is a plain object (not null, not an array); throws {@link ArgumentError}. */
export function requireObject(
  argument: string,
  value: unknown,
  what = "an object",
): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ArgumentError({
      argument,
      message: `expected ${what}, got ${describeArgument(value)}.`,
    });
  }
  return value as Record<string, unknown>;
}

/** Returns `value` when it is a string or bytes, what a workspace file holds; throws otherwise. */
export function requireFileData(argument: string, value: unknown): string | Uint8Array {
  if (typeof value !== "string" && !(value instanceof Uint8Array)) {
    throw new ArgumentError({
      argument,
      message: `expected the file's content as a string or a Uint8Array, got ${describeArgument(value)}.`,
    });
  }
  return value;
}

/** Returns `value` when it is undefined or a boolean; throws {@link ArgumentError} otherwise. */
export function requireOptionalBoolean(argument: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== "boolean") {
    throw new ArgumentError({
      argument,
      message: `expected true or false (or nothing), got ${describeArgument(value)}.`,
    });
  }
  return value;
}

/** The longest delay, in milliseconds, that timers support (about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;
