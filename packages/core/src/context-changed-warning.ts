import { requireText } from "./arguments.ts";

/** The arguments of {@link contextChangedWarning}. */
export interface ContextChangedOptions {
  /** Who worked from the context, as the warning names it: `subagent "review-1"`, `generate_video`. */
  recipient: string;
  /** The hash of the CONTEXT.md content the recipient was given. */
  given: string;
  /** The hash of what CONTEXT.md delivers now; undefined when it was removed or is no longer usable. */
  current: string | undefined;
}

/**
 * The warning for the agent whose own CONTEXT.md changed — or vanished — while a recipient it
 * delegated to (a subagent, a media tool's external call) worked from the earlier version: it
 * says that it was the agent's CONTEXT.md, which version the recipient used, and what to do.
 * Undefined when nothing changed. Hashes compare without regard to case; the warning shows their
 * first 12 digits (the result carries them whole).
 *
 * @example
 * ```ts source="../examples/context-changed-warning.ts#contextChangedWarning"
 * const given = await loadTaskContext(workspace); // what the subagent was given
 * // … the subagent runs; meanwhile the agent rewrites its CONTEXT.md …
 * await workspace.writeFile("CONTEXT.md", "Lumen: notes app. Tone: playful.");
 * const now = await loadTaskContext(workspace, { required: false });
 * const warning = contextChangedWarning({
 *   recipient: 'subagent "review-1"',
 *   given: given.sha256,
 *   current: now.found ? now.sha256 : undefined,
 * });
 * if (warning !== undefined) console.warn(warning);
 * // Your CONTEXT.md changed while subagent "review-1" ran: it worked from the CONTEXT.md with
 * // sha256 fc8d83d4670e…, yours is now sha256 1923bad17287…. Check its result against your
 * // current CONTEXT.md, or run it again so that it works from the current one.
 * ```
 */
export function contextChangedWarning(options: ContextChangedOptions): string | undefined {
  const recipient = requireText("recipient", options?.recipient);
  const given = requireText("given", options.given, "a SHA-256 hex string").toLowerCase();
  const current = options.current?.toLowerCase();
  if (current === given) return undefined;
  if (current === undefined) {
    return `Your CONTEXT.md was removed or became unusable while ${recipient} ran: it worked from the CONTEXT.md with sha256 ${shortHash(given)}. Recreate CONTEXT.md before you spawn subagents or use multimodal tools again, and check this result against the task as it is now.`;
  }
  return `Your CONTEXT.md changed while ${recipient} ran: it worked from the CONTEXT.md with sha256 ${shortHash(given)}, yours is now sha256 ${shortHash(current)}. Check its result against your current CONTEXT.md, or run it again so that it works from the current one.`;
}

/** The first 12 digits of a hash, as warnings show it. */
export function shortHash(sha256: string): string {
  return `${sha256.slice(0, 12)}…`;
}
