import type {
  HookCallback,
  HookCallbackMatcher,
  HookJSONOutput,
  PreToolUseHookInput,
} from "@anthropic-ai/claude-agent-sdk";
import {
  ArgumentError,
  type ContextView,
  injectTaskContext,
  type LoadTaskContextOptions,
  TaskContextError,
  type Workspace,
} from "@task-context/core";
import {
  describeArgument,
  forgedHeadersWarning,
  joinWarnings,
  neutraliseForgedHeaders,
  requireContextView,
  requireLoadOptions,
  requireObject,
  requireWorkspace,
} from "@task-context/core/internal";
import { deliverToAgent } from "@task-context/core/tracing";
import { receiptOf, type TaskContextReceipt } from "./receipt.ts";
import { DEFAULT_SUBAGENT, SUBAGENT_TOOL_MATCHER } from "./subagent-tools.ts";

/** The instrumentation scope of the delivery spans. */
const TRACER = "@task-context/claude-agent-sdk";

/** Options of {@link taskContextHooks}: where CONTEXT.md is, how it is loaded, and for whom. */
export interface TaskContextHooksOptions extends LoadTaskContextOptions {
  /** Where CONTEXT.md is read from, at every delegation. */
  workspace: Workspace;
  /**
   * A view per subagent, by the name a delegation gives (`subagent_type`: `Explore`, `Plan`,
   * `general-purpose`, one of your `agents`); a subagent not named gets `view`, or the whole file.
   */
  views?: Record<string, ContextView> | undefined;
  /** Called with the receipt of every delivery, before the subagent starts. */
  onDelivery?: ((receipt: TaskContextReceipt) => void) | undefined;
}

/** The hooks of {@link taskContextHooks}: put them in `options.hooks` of `query()`. */
export interface TaskContextHooks {
  PreToolUse: HookCallbackMatcher[];
}

/** The input of the subagent tool, as far as it is read here. */
interface SubagentToolInput {
  prompt?: unknown;
  subagent_type?: unknown;
}

function requireViews(views: unknown): Map<string, ContextView> {
  if (views === undefined) return new Map();
  const record = requireObject("views", views, "an object of views by subagent name");
  return new Map(
    Object.entries(record).map(([agent, view]) => [
      agent,
      requireContextView(`views.${agent}`, view),
    ]),
  );
}

/**
 * Hooks for the Claude Agent SDK's `query()` that give every subagent the main agent's task
 * context — CONTEXT.md, or the view of it for that subagent — in its prompt, the built-in
 * `Explore` and `Plan` (which skip CLAUDE.md) included. Before Claude Code starts a subagent (a
 * `PreToolUse` hook on its subagent tool, `Agent`, or `Task` in older versions), the hook loads
 * CONTEXT.md fresh from the workspace and rewrites the delegation prompt as
 * `[Task Context]\n{context}\n\n[Request]\n{prompt}`, with lines of the prompt that pose as those
 * headers made inert (`⟦Request⟧`), and allows the call (`permissionDecision: "allow"`; deny rules
 * still apply). The receipt goes to `onDelivery`, and each delivery opens an `invoke_agent {agent}`
 * span. A warning (a truncated CONTEXT.md, a forged header) reaches the main agent as the hook's
 * `additionalContext`.
 *
 * A missing CONTEXT.md denies the delegation with core's guiding message (`TASK_CONTEXT_MISSING`)
 * as the reason, which the main agent reads — it writes CONTEXT.md and delegates again — unless
 * `required: false`, which lets the delegation through unchanged. Any other error of core (a view
 * that selects nothing, `CONTEXT_VIEW_EMPTY`; a workspace that cannot be read) denies it the same
 * way. Invalid options throw core's `ArgumentError` here.
 *
 * @example
 * ```ts source="../examples/review-team.ts#example"
 * import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
 * import {
 *   taskContextAgents,
 *   taskContextHooks,
 *   taskContextMcpServer,
 * } from "@task-context/claude-agent-sdk";
 * import { CONTEXT_VIEW_PRESETS } from "@task-context/core";
 * import { nodeWorkspace } from "@task-context/core/node";
 *
 * const workspace = nodeWorkspace("."); // the directory that holds CONTEXT.md
 * const reviewer = {
 *   description: "Reviews a change against the project's rules.",
 *   prompt: "You review changes. Answer with the problems you find.",
 *   tools: ["Read", "Grep", "Glob"],
 * };
 *
 * const options: Options = {
 *   agents: taskContextAgents({ reviewer }),
 *   // every subagent's prompt starts with CONTEXT.md; Explore gets its brief view
 *   hooks: taskContextHooks({
 *     workspace,
 *     views: { Explore: CONTEXT_VIEW_PRESETS.brief },
 *     onDelivery: ({ agent, contextView, contextSha256 }) =>
 *       console.log(`${agent}: ${contextView?.name ?? "CONTEXT.md"} ${contextSha256}`),
 *   }),
 *   mcpServers: { "task-context": taskContextMcpServer() },
 * };
 *
 * for await (const message of query({ prompt: "Review the export feature.", options })) {
 *   if (message.type === "result") console.log(message.subtype);
 * }
 * ```
 */
export function taskContextHooks(options: TaskContextHooksOptions): TaskContextHooks {
  requireObject("options", options, "the options object");
  const { workspace: given, views: givenViews, onDelivery, ...load } = options;
  const workspace = requireWorkspace("workspace", given);
  const views = requireViews(givenViews);
  requireLoadOptions(load);
  if (onDelivery !== undefined && typeof onDelivery !== "function") {
    throw new ArgumentError({
      argument: "onDelivery",
      message: `expected a function (or nothing), got ${describeArgument(onDelivery)}.`,
    });
  }

  const deliver = async (
    agent: string,
    toolUseId: string | undefined,
    input: SubagentToolInput & Record<string, unknown>,
    prompt: string,
  ): Promise<HookJSONOutput> =>
    deliverToAgent(
      { tracer: TRACER, agent, workspace, load: { ...load, view: views.get(agent) ?? load.view } },
      (context) => {
        if (!context.found) return {};
        const request = neutraliseForgedHeaders(prompt);
        const warning = joinWarnings([context.warning, forgedHeadersWarning(agent, request.lines)]);
        onDelivery?.(receiptOf(agent, toolUseId, context, warning));
        return {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "allow",
            updatedInput: { ...input, prompt: injectTaskContext(request.text, context) },
            ...(warning === undefined ? {} : { additionalContext: warning }),
          },
        };
      },
    );

  const beforeSubagent: HookCallback = async (hookInput, toolUseId) => {
    const { hook_event_name: event, tool_input: toolInput } = hookInput as PreToolUseHookInput;
    if (event !== "PreToolUse" || typeof toolInput !== "object" || toolInput === null) return {};
    const input = toolInput as SubagentToolInput & Record<string, unknown>;
    if (typeof input.prompt !== "string") return {};
    const agent =
      typeof input.subagent_type === "string" && input.subagent_type !== ""
        ? input.subagent_type
        : DEFAULT_SUBAGENT;
    try {
      return await deliver(agent, toolUseId, input, input.prompt);
    } catch (error) {
      // The main agent reads the reason: the guiding message tells it to write CONTEXT.md.
      if (!TaskContextError.isInstance(error)) throw error;
      return {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: error.message,
        },
      };
    }
  };

  return { PreToolUse: [{ matcher: SUBAGENT_TOOL_MATCHER, hooks: [beforeSubagent] }] };
}
