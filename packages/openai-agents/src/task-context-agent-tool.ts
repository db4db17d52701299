import {
  type Agent,
  type AgentOutputType,
  defineToolInputGuardrail,
  type Tool,
  ToolGuardrailFunctionOutputFactory,
} from "@openai/agents";
import {
  ArgumentError,
  injectTaskContext,
  neutralisePosingText,
  type TaskContext,
  TaskContextError,
  untrustedContentWarning,
} from "@task-context/core";
import { describeArgument } from "@task-context/core/internal";
import {
  checkDeliveryOptions,
  sdkOptions,
  type TaskContextDeliveryOptions,
} from "./delivery-options.ts";
import { loadForAgent } from "./load-for-agent.ts";
import { recordReceipt } from "./record-receipt.ts";
import { receiptOf } from "./task-context-receipt.ts";

/** The SDK's options of `agent.asTool(…)`, less those of a structured input. */
type AgentToolOptions<TContext, TOutput extends AgentOutputType> = Omit<
  Parameters<Agent<TContext, TOutput>["asTool"]>[0],
  "parameters" | "inputBuilder" | "includeInputSchema"
>;

/**
 * Options of {@link taskContextAgentTool}: where CONTEXT.md is and how to load it (a `view`, the
 * limits), and any option of the SDK's `agent.asTool()` — `toolName`, `toolDescription`,
 * `customOutputExtractor`, `runConfig`, `needsApproval`, … — except a structured `parameters`
 * schema: the tool takes the SDK's default input, `{ input: string }`, the request.
 */
export type TaskContextAgentToolOptions<
  TContext = unknown,
  TOutput extends AgentOutputType = "text",
> = AgentToolOptions<TContext, TOutput> & TaskContextDeliveryOptions;

/**
 * An agent as a tool (the SDK's `agent.asTool(…)`) whose agent receives the task context: each
 * call loads CONTEXT.md (through the `view`, when one is given) and runs the agent on
 * `[Task Context]\n{context}\n\n[Request]\n{input}`, `input` being what the calling model wrote.
 *
 * Fenced: the request is the calling model's text, so what in it poses as the task-context format,
 * a Context Protocol or Sage tag, a system message or a chat-template turn is neutralised (kept
 * visible: `[Task Context]` → `⟦Task Context⟧`) before it goes after the real context; the
 * receipt's `warning` says where.
 *
 * The receipt (the context's sha256, its view, any warning) goes into the run's trace as a custom
 * span `task_context` under the tool's function span, and to `onDelivery`. With an OpenTelemetry
 * SDK, the load is an `invoke_agent {agent}` delivery span in the application's trace.
 *
 * CONTEXT.md is loaded by a tool input guardrail (`task_context`), before the agent runs: when it
 * cannot be delivered the agent does not run, and the calling model receives, as the tool's
 * output, the error's code and message — for a missing CONTEXT.md
 * `TASK_CONTEXT_MISSING: CONTEXT.md not found in workspace. …`, the guiding message, which tells
 * it to write one (the SDK would hide a thrown error's message from the model). `required: false`
 * runs the agent on the request alone. Invalid options throw core's `ArgumentError`
 * (`INVALID_ARGUMENT`) here.
 *
 * @example
 * ```ts source="../examples/agent-tool.ts#taskContextAgentTool"
 * const illustrator = new Agent({
 *   name: "Illustrator",
 *   instructions: "You describe images for the launch page.",
 *   model: "gpt-5-mini",
 * });
 * const lead = new Agent({
 *   name: "Lead",
 *   instructions: "Ask the illustrator for every image.",
 *   model: "gpt-5-mini",
 *   tools: [
 *     taskContextAgentTool(illustrator, {
 *       toolName: "illustrate",
 *       toolDescription: "Describes an image for the launch page.",
 *       workspace: nodeWorkspace("."),
 *       view: CONTEXT_VIEW_PRESETS.media, // what we are building, key terms, brand rules
 *     }),
 *   ],
 * });
 * ```
 */
export function taskContextAgentTool<TContext, TOutput extends AgentOutputType>(
  agent: Agent<TContext, TOutput>,
  options: TaskContextAgentToolOptions<TContext, TOutput>,
): Tool<TContext> {
  const delivery = checkDeliveryOptions(options);
  const given: Record<string, unknown> = sdkOptions(options);
  for (const unsupported of ["parameters", "inputBuilder"] as const) {
    if (given[unsupported] !== undefined) {
      throw new ArgumentError({
        argument: `options.${unsupported}`,
        message: `taskContextAgentTool takes the SDK's default input, { input: string }, the request the context goes with; got ${describeArgument(given[unsupported])}. Leave ${unsupported} out.`,
      });
    }
  }
  const { name } = agent;
  const toolName = typeof given.toolName === "string" ? given.toolName : name;
  // The context the guardrail loaded for each request, until the input builder delivers it.
  const loaded = new Map<string, TaskContext[]>();
  const created = agent.asTool({
    ...given,
    async inputBuilder({ params }: { params: unknown }) {
      const request = requestOf(params);
      const queued = loaded.get(request);
      const context = queued?.shift() ?? (await loadForAgent(delivery, name));
      if (queued?.length === 0) loaded.delete(request);
      const fenced = neutralisePosingText(request);
      const source = `the input of tool ${JSON.stringify(toolName)}`;
      const findings = fenced.findings.map(({ kind, line }) => ({ source, kind, line }));
      const warning = untrustedContentWarning(findings);
      recordReceipt(delivery, receiptOf(name, "agent-tool", context, [warning]));
      return injectTaskContext(fenced.text, context);
    },
  } as Parameters<Agent<TContext, TOutput>["asTool"]>[0]);
  // Before the agent runs, a tool input guardrail loads its context: a CONTEXT.md that cannot be
  // delivered rejects the call with `CODE: message` as the tool's output, which the calling model
  // reads (the SDK hides a tool's errors from it).
  const guardrail = defineToolInputGuardrail<TContext>({
    name: "task_context",
    async run({ toolCall }) {
      const request = requestOf(parseArguments(toolCall.arguments));
      try {
        const context = await loadForAgent(delivery, name);
        loaded.set(request, [...(loaded.get(request) ?? []), context]);
        return ToolGuardrailFunctionOutputFactory.allow();
      } catch (error) {
        if (!TaskContextError.isInstance(error)) throw error;
        return ToolGuardrailFunctionOutputFactory.rejectContent(`${error.code}: ${error.message}`);
      }
    },
  });
  created.inputGuardrails = [guardrail, ...(created.inputGuardrails ?? [])];
  return created as Tool<TContext>;
}

/** The tool's arguments as the model wrote them (JSON), or undefined when they are not JSON. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The request of the tool's input `{ input }`: the text the context goes with. */
function requestOf(params: unknown): string {
  const request = (params as { input?: unknown } | undefined)?.input;
  if (typeof request !== "string") {
    throw new ArgumentError({
      argument: "input",
      message: `expected the tool's input to be { input: string }, got ${describeArgument(params)}.`,
    });
  }
  return request;
}
