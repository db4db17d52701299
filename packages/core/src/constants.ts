/** The file, at the workspace root, that holds the agent's task context. */
export const CONTEXT_FILENAME = "CONTEXT.md";

/** How many characters (UTF-16 code units) of CONTEXT.md are delivered by default. */
export const DEFAULT_MAX_CHARS = 10_000;

/**
 * The guiding message for a missing CONTEXT.md (see
 * {@link https://github.com/task-context/task-context/blob/main/docs/errors-and-warnings.md | errors and warnings}). Every `TaskContextMissingError`
 * message starts with it, so an agent that reads the error knows what to do next.
 */
export const CONTEXT_MISSING_MESSAGE =
  "CONTEXT.md not found in workspace. Before using multimodal tools or spawning subagents, create a CONTEXT.md file with task context. See system prompt for instructions.";
