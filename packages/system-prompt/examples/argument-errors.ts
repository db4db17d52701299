// Options of the wrong type or shape throw core's ArgumentError, naming the option.
import { ArgumentError } from "@task-context/core";
import { buildSystemPrompt } from "@task-context/system-prompt";

try {
  buildSystemPrompt({ maxContextChars: 0 });
} catch (error) {
  if (ArgumentError.isInstance(error)) console.error(error.argument, error.message);
  // "maxContextChars" "Invalid maxContextChars: expected a whole number ≥ 1, got a number (0)."
}
