import { TaskContextError } from "@task-context/core";

/** The numbers behind a {@link ContextTooLargeError}. */
export interface ContextTooLargeDetails {
  /** The task whose context did not fit. */
  taskId: string;
  /** The subagent type whose limits applied. */
  subagentType: string;
  /** Tokens of the smallest document the limits strategies could produce. */
  tokens: number;
  /** The `max_total` limit for the subagent type. */
  maxTotal: number;
  /** Tokens of the parts that are never reduced: task, instructions, scope and output format. */
  requiredTokens: number;
}

const marker = "task-context.error.ContextTooLargeError";
const symbol = Symbol.for(marker);

/**
 * Sage's step 3: even after summarizing, replacing file content with path references and
 * truncating every context item, the document is over `max_total` — the task is too large for
 * the subagent. Split the task, or raise the type's `max_total`.
 *
 * @example
 * ```ts source="../../examples/context-too-large.ts"
 * import { memoryWorkspace } from "@task-context/core";
 * import { ContextTooLargeError, generateContext } from "@task-context/protocols/sage";
 *
 * const workspace = memoryWorkspace({
 *   ".sage/config/context-limits.yaml": "defaults:\n  max_total: 50\n",
 * });
 * const taskData = { description: "Plan the Markdown export" };
 * try {
 *   await generateContext({ taskId: "T-1", subagentType: "plan", taskData }, { workspace });
 * } catch (error) {
 *   if (!ContextTooLargeError.isInstance(error)) throw error;
 *   console.error(error.tokens, error.maxTotal); // 309 50: split the task, or raise max_total
 * }
 * ```
 */
export class ContextTooLargeError
  extends TaskContextError<"CONTEXT_TOO_LARGE">
  implements ContextTooLargeDetails
{
  protected readonly [symbol] = true;
  override name = "ContextTooLargeError";
  readonly taskId: string;
  readonly subagentType: string;
  readonly tokens: number;
  readonly maxTotal: number;
  readonly requiredTokens: number;

  constructor(details: ContextTooLargeDetails) {
    super({
      code: "CONTEXT_TOO_LARGE",
      message: `Context for task ${JSON.stringify(details.taskId)}: task too large for subagent ${JSON.stringify(details.subagentType)}. The smallest document is ${details.tokens} tokens, over max_total ${details.maxTotal} (the task, instructions, scope and output format alone take ${details.requiredTokens} tokens; context items were already summarized, replaced with file references or truncated). Split the task into smaller ones, shorten its description, instructions or file lists, or raise max_total for "${details.subagentType}" in .sage/config/context-limits.yaml.`,
    });
    this.taskId = details.taskId;
    this.subagentType = details.subagentType;
    this.tokens = details.tokens;
    this.maxTotal = details.maxTotal;
    this.requiredTokens = details.requiredTokens;
  }

  static override isInstance(error: unknown): error is ContextTooLargeError {
    return TaskContextError.hasMarker(error, marker);
  }
}
