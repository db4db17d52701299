/**
 * The names of Claude Code's tool that starts a subagent: `Agent`, called `Task` before Claude
 * Code 2.1 (and in the SDK 0.2 line). The hooks match both, so one setup serves every version.
 */
export const SUBAGENT_TOOLS = ["Agent", "Task"] as const;

/** The hook matcher for {@link SUBAGENT_TOOLS}: Claude Code reads a matcher as a regular expression. */
export const SUBAGENT_TOOL_MATCHER = SUBAGENT_TOOLS.join("|");

/** The subagent a delegation names, or Claude Code's default when it names none. */
export const DEFAULT_SUBAGENT = "general-purpose";
