import { CONTEXT_FILENAME } from "@task-context/core";
import { requireObject, requireOptionalBoolean } from "@task-context/core/internal";

/** Options of {@link contextReceiverInstructions}. */
export interface ContextReceiverOptions {
  /** Mention the read-only CONTEXT.md the subagent inherits (default true). */
  inheritsContextMd?: boolean;
}

/**
 * Instructions for a subagent, in words a model follows: the rules for receiving a Context
 * Protocol v1 block (use it when present and its version is 1 or missing, fall back to
 * `docs/project.json` and `docs/CONVENTIONS.md` otherwise), and the read-only CONTEXT.md it
 * inherits from its parent. Throws `ArgumentError` for options of the wrong type. See
 * https://github.com/task-context/task-context/blob/main/docs/system-prompt.md#subagents
 *
 * @example
 * ```ts source="../examples/receiver-instructions.ts#contextReceiverInstructions"
 * const system = `You implement one story at a time.\n\n${contextReceiverInstructions()}`;
 * ```
 */
export function contextReceiverInstructions(options: ContextReceiverOptions = {}): string {
  const { inheritsContextMd } = requireObject("options", options, "receiver options");
  const lines = [
    "## Receiving project context (Context Protocol v1)",
    "",
    "1. Look for a `<context>` block at the very start of your prompt (it may sit inside a ```yaml fence).",
    "2. If it is there and its `version` is 1, or it has no `version`: use `project.path` as your working directory, follow `conventions.summary`, run the commands in `project.commands`, and do not read docs/project.json or docs/CONVENTIONS.md again.",
    "3. If there is no block, or its version is not 1: read `<cwd>/docs/project.json` and `<cwd>/docs/CONVENTIONS.md` yourself, then continue as usual.",
    "4. If the summary is not enough for the task in front of you, read the full conventions from `conventions.fullPath`.",
    "5. `currentWork` names the PRD, story and branch you are working on; stay within them.",
  ];
  if (requireOptionalBoolean("inheritsContextMd", inheritsContextMd) ?? true) {
    lines.push(
      "",
      `Your workspace holds a read-only copy of your parent's ${CONTEXT_FILENAME}: what we are building, key terms and brand rules. Read it before you start. Do not create, edit or delete it; tell your parent if it is wrong.`,
    );
  }
  return lines.join("\n");
}
