import { describeArgument, requireString } from "./arguments.ts";
import { ArgumentError } from "./errors/argument-error.ts";
import type { TaskContext } from "./task-context.ts";

const CONTEXT_HEADER = "[Task Context]\n";
const REQUEST_SEPARATOR = "\n\n[Request]\n";

// A context line that reads as a marker, with any number of leading backslashes, gets one more
// backslash; unescaping removes one. So no context can contain the separator, and split undoes
// inject exactly.
const MARKER_LINE = /^\\*\[(?:Task Context|Request)\]\r?$/gm;
const ESCAPED_MARKER_LINE = /^\\(\\*\[(?:Task Context|Request)\]\r?)$/gm;

/** The parts of a prompt built by {@link injectTaskContext}. */
export interface SplitPrompt {
  /** The task context, or `undefined` when the text carries none. */
  context: string | undefined;
  /** The original prompt, byte for byte. */
  prompt: string;
}

function contentOf(context: string | TaskContext | null | undefined): string {
  if (context === null || context === undefined) return "";
  if (typeof context === "string") return context;
  if (typeof context === "object" && typeof context.content === "string") return context.content;
  throw new ArgumentError({
    argument: "context",
    message: `expected the loaded TaskContext, its content as a string, or nothing; got ${describeArgument(context)}.`,
  });
}

/**
 * Prepends the task context to a prompt for an external model, in the task-context format
 * ({@link https://github.com/task-context/task-context/blob/main/docs/getting-started.md | getting started}):
 * `[Task Context]\n{context}\n\n[Request]\n{prompt}`. With no context (undefined, null or an empty
 * string) the prompt is returned unchanged. A context line that reads as a marker (`[Request]`,
 * `[Task Context]`) is escaped with a backslash so that the first `\n\n[Request]\n` is always the
 * real separator.
 *
 * @example
 * ```ts source="../examples/inject-task-context.ts#injectTaskContext"
 * injectTaskContext("What does the logo say?", "We are building Lumen, a note-taking app.");
 * // "[Task Context]\nWe are building Lumen, a note-taking app.\n\n[Request]\nWhat does the logo say?"
 * ```
 */
export function injectTaskContext(
  prompt: string,
  context: string | TaskContext | null | undefined,
): string {
  requireString("prompt", prompt);
  const content = contentOf(context);
  if (content === "") return prompt;
  return `${CONTEXT_HEADER}${content.replace(MARKER_LINE, "\\$&")}${REQUEST_SEPARATOR}${prompt}`;
}

/**
 * The inverse of {@link injectTaskContext}: recovers the context and the original prompt byte for
 * byte. Text that does not start with `[Task Context]\n` and hold a `[Request]` separator is
 * returned as the prompt, with `context: undefined`.
 *
 * @example
 * ```ts source="../examples/inject-task-context.ts#splitTaskContext"
 * splitTaskContext("[Task Context]\nBuilding Lumen.\n\n[Request]\nDescribe it.");
 * // { context: "Building Lumen.", prompt: "Describe it." }
 * ```
 */
export function splitTaskContext(text: string): SplitPrompt {
  requireString("text", text);
  if (!text.startsWith(CONTEXT_HEADER)) return { context: undefined, prompt: text };
  const separator = text.indexOf(REQUEST_SEPARATOR, CONTEXT_HEADER.length);
  if (separator === -1) return { context: undefined, prompt: text };
  return {
    context: text.slice(CONTEXT_HEADER.length, separator).replace(ESCAPED_MARKER_LINE, "$1"),
    prompt: text.slice(separator + REQUEST_SEPARATOR.length),
  };
}
