import * as z from "zod";
import { MAX_TEXT_ARGUMENT_CHARS } from "./limits.ts";

/** A text argument of at most {@link MAX_TEXT_ARGUMENT_CHARS} UTF-16 units. */
export function textArgument(name: string, description: string) {
  return z
    .string()
    .max(
      MAX_TEXT_ARGUMENT_CHARS,
      `${name} must have at most ${MAX_TEXT_ARGUMENT_CHARS} characters; send a shorter ${name}`,
    )
    .describe(description);
}
