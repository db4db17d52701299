import {
  type Agent,
  type AgentOutputType,
  type Handoff,
  type HandoffInputData,
  handoff,
  type RunContext,
} from "@openai/agents";
import { ArgumentError, type TaskContext } from "@task-context/core";
import { describeArgument } from "@task-context/core/internal";
import {
  checkDeliveryOptions,
  sdkOptions,
  type TaskContextDeliveryOptions,
} from "./delivery-options.ts";
import { HandoffNotInvokedError } from "./errors/handoff-not-invoked-error.ts";
import { handoffInput } from "./handoff-input.ts";
import { loadForAgent } from "./load-for-agent.ts";
import { recordReceipt } from "./record-receipt.ts";
import { receiptOf } from "./task-context-receipt.ts";

/** The SDK's own options of `handoff(agent, options)`. */
type HandoffOptions = NonNullable<Parameters<typeof handoff>[1]>;

/**
 * Options of {@link taskContextHandoff}: where CONTEXT.md is and how to load it (a `view`, the
 * limits), and any option of the SDK's `handoff()` — `inputFilter` runs first, on the conversation
 * as the SDK hands it over; `onHandoff`, `inputType`, the tool's name and description, `isEnabled`
 * are the SDK's.
 */
export type TaskContextHandoffOptions = HandoffOptions & TaskContextDeliveryOptions;

/**
 * A handoff (the SDK's `handoff(agent, …)`) whose agent receives the task context: when the
 * handoff is invoked, CONTEXT.md is loaded (through the `view`, when one is given), and the
 * receiving agent's input starts with one system message in the task-context format,
 * `[Task Context]\n{context}\n\n[Request]\n…` (the request says the conversation was handed over),
 * followed by the conversation.
 *
 * Fenced: the context is recognised by its role — a system message, which only the application
 * writes — never by its text, so a user or a model cannot pose as it. A task context delivered by
 * an earlier handoff is replaced, not repeated. In the conversation handed over, text that poses as
 * the task-context format, a Context Protocol or Sage tag, a system message or a chat-template
 * turn is neutralised (kept visible, `[Request]` → `⟦Request⟧`), and the receipt's `warning` says
 * where. As with every input filter, what the filter returns is the run's history from then on
 * (`result.history`, `result.newItems`), while the model's responses (`result.rawResponses`) keep
 * the text as written; the next `taskContextHandoff` replaces the system message with the context
 * as it then is.
 *
 * The receipt (the context's sha256, its view, any warning) goes into the run's trace as a custom
 * span `task_context` under the handoff's span, and to `onDelivery`. With an OpenTelemetry SDK,
 * the load is an `invoke_agent {agent}` delivery span in the application's trace.
 *
 * A missing CONTEXT.md fails the handoff, and so the run, with core's `TaskContextMissingError`
 * (`TASK_CONTEXT_MISSING`, the guiding message); `required: false` hands over without a context.
 * Invalid options throw core's `ArgumentError` (`INVALID_ARGUMENT`) here. A filtered handoff cannot
 * be combined with `conversationId` or `previousResponseId` (the SDK's rule for every input filter).
 *
 * @example
 * ```ts source="../examples/handoff.ts#taskContextHandoff"
 * const writer = new Agent({
 *   name: "Writer",
 *   instructions: "You write launch copy.",
 *   model: "gpt-5-mini",
 * });
 * const triage = new Agent({
 *   name: "Triage",
 *   instructions: "Hand copywriting requests to the writer.",
 *   model: "gpt-5-mini",
 *   // the writer receives CONTEXT.md, from the current directory, when the triage hands over
 *   handoffs: [taskContextHandoff(writer, { workspace: nodeWorkspace(".") })],
 * });
 * ```
 */
export function taskContextHandoff<TContext, TOutput extends AgentOutputType>(
  agent: Agent<TContext, TOutput>,
  options: TaskContextHandoffOptions,
): Handoff<TContext, TOutput> {
  const delivery = checkDeliveryOptions(options);
  const { inputFilter, ...config } = sdkOptions(options);
  if (inputFilter !== undefined && typeof inputFilter !== "function") {
    throw new ArgumentError({
      argument: "options.inputFilter",
      message: `expected the SDK's handoff input filter, a function, got ${describeArgument(inputFilter)}.`,
    });
  }
  const created = handoff(agent, config as HandoffOptions) as Handoff<TContext, TOutput>;
  // The context each invocation loaded, by its run context, for the input filter that follows.
  const loaded = new WeakMap<RunContext<TContext>, { agent: string; context: TaskContext }>();
  const invoke = created.onInvokeHandoff;
  created.onInvokeHandoff = async (runContext, args) => {
    const target = await invoke(runContext, args);
    const context = await loadForAgent(delivery, target.name);
    loaded.set(runContext, { agent: target.name, context });
    return target;
  };
  created.inputFilter = (data: HandoffInputData): HandoffInputData => {
    const entry = data.runContext === undefined ? undefined : loaded.get(data.runContext);
    if (entry === undefined) throw new HandoffNotInvokedError({ agent: agent.name });
    loaded.delete(data.runContext as RunContext<TContext>);
    const filtered = inputFilter === undefined ? data : inputFilter(data);
    const input = handoffInput(filtered, entry.agent, entry.context);
    recordReceipt(delivery, receiptOf(entry.agent, "handoff", entry.context, [input.warning]));
    return input.data;
  };
  return created;
}
