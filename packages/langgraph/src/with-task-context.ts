import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import {
  ArgumentError,
  type LoadTaskContextOptions,
  type TaskContext,
  type Workspace,
} from "@task-context/core";
import {
  describeArgument,
  forgedHeadersWarning,
  joinWarnings,
  requireLoadOptions,
  requireObject,
  requireOptionalBoolean,
  requireText,
  requireWorkspace,
} from "@task-context/core/internal";
import { deliverToAgent } from "@task-context/core/tracing";
import { injectIntoMessages } from "./inject-into-messages.ts";
import { receiptOf, TASK_CONTEXT_METADATA_KEY } from "./receipt.ts";
import { TASK_CONTEXT_KEY } from "./task-context-of.ts";

/** The instrumentation scope of the delivery spans. */
const TRACER = "@task-context/langgraph";

/**
 * What {@link withTaskContext} wraps: a compiled graph (a subgraph, a prebuilt agent: anything
 * with `invoke`), or a node function.
 */
export type TaskContextTarget<State, Update> =
  | { invoke(input: State, config?: LangGraphRunnableConfig): Promise<Update> }
  | ((state: State, config: LangGraphRunnableConfig) => Update | Promise<Update>);

/** Options of {@link withTaskContext}: where CONTEXT.md is, how it is loaded, and for whom. */
export interface WithTaskContextOptions extends LoadTaskContextOptions {
  /** Where CONTEXT.md is read from, at every call of the node. */
  workspace: Workspace;
  /**
   * The recipient's name in spans and warnings. Default: the node's name in the parent graph
   * (`config.metadata.langgraph_node`).
   */
  name?: string | undefined;
  /**
   * Inject the context into the last human message of `state.messages`, as
   * `[Task Context]\n{context}\n\n[Request]\n{message}` (default true). It only applies to state
   * with a `messages` array; the runtime context carries it in every case.
   */
  messages?: boolean | undefined;
}

const NO_HUMAN_MESSAGE =
  "The task context was not injected into the messages: they hold no message from a human to carry it (the runtime context still carries it).";

function requireTarget<State, Update>(target: unknown): TaskContextTarget<State, Update> {
  if (typeof target === "function") return target as TaskContextTarget<State, Update>;
  if (
    typeof target === "object" &&
    target !== null &&
    typeof (target as { invoke?: unknown }).invoke === "function"
  ) {
    return target as TaskContextTarget<State, Update>;
  }
  throw new ArgumentError({
    argument: "target",
    message: `expected a compiled graph (with invoke) or a node function, got ${describeArgument(target)}.`,
  });
}

/** The node's name in its graph, from LangGraph's metadata. */
function nodeName(config: LangGraphRunnableConfig | undefined): string | undefined {
  const node = config?.metadata?.langgraph_node;
  return typeof node === "string" && node !== "" ? node : undefined;
}

/**
 * Wraps a subgraph (or a node function) so that, at every call, it receives the agent's task
 * context — CONTEXT.md, or the view of it given in `options.view` — loaded fresh from the
 * workspace:
 *
 * - in LangGraph's **runtime context**, as `taskContext` (read it with {@link taskContextOf}):
 *   passed to the subgraph's invocation, so every node inside it has it, however deep;
 * - in the **last human message** of `state.messages`, as
 *   `[Task Context]\n{context}\n\n[Request]\n{message}`, for subgraphs built on messages (a
 *   prebuilt agent): its model reads it. Lines of the message that pose as those headers are made
 *   inert (`⟦Request⟧`), so the context delivered is the only one; the parent's state gets the
 *   message back as it was;
 * - and its **receipt**, `{ contextSha256, contextView?, warning? }`, in the run's metadata under
 *   `taskContext`, where LangSmith and LangChain callbacks show it on the subgraph's run.
 *
 * Add the result to the parent graph with `addNode`. Each call opens an `invoke_agent {name}`
 * span (recipient kind `subagent`) around the subgraph's run, so spans inside it, a nested
 * subgraph's included, are its children in one trace. A missing CONTEXT.md fails the node with
 * core's `TaskContextMissingError` (`TASK_CONTEXT_MISSING`) and the guiding message, unless
 * `required: false`; a view that selects nothing fails it with `ContextViewEmptyError`
 * (`CONTEXT_VIEW_EMPTY`). Invalid options throw core's `ArgumentError` here.
 *
 * @example
 * ```ts source="../examples/research-team.ts#withTaskContext"
 * const graph = new StateGraph(MessagesAnnotation)
 *   // the researcher gets only the brief view of CONTEXT.md; the writer the whole file
 *   .addNode(
 *     "researcher",
 *     withTaskContext(researcher, { workspace, view: CONTEXT_VIEW_PRESETS.brief }),
 *   )
 *   .addNode("writer", withTaskContext(writer, { workspace }))
 *   .addEdge(START, "researcher")
 *   .addEdge("researcher", "writer")
 *   .compile();
 * ```
 */
export function withTaskContext<State, Update>(
  target: TaskContextTarget<State, Update>,
  options: WithTaskContextOptions,
): (state: State, config: LangGraphRunnableConfig) => Promise<Update> {
  const wrapped = requireTarget<State, Update>(target);
  requireObject("options", options, "the options object");
  const { workspace: given, name: givenName, messages: givenMessages, ...load } = options;
  const workspace: Workspace = requireWorkspace("workspace", given);
  const name = givenName === undefined ? undefined : requireText("name", givenName);
  const messages = requireOptionalBoolean("messages", givenMessages) ?? true;
  requireLoadOptions(load);

  return async (state, config) => {
    const recipient = name ?? nodeName(config) ?? "subgraph";
    return deliverToAgent(
      { tracer: TRACER, agent: recipient, workspace, load },
      async (context) => {
        const injected = messages && context.found ? injectIntoMessages(state, context) : undefined;
        const warning = joinWarnings([
          context.warning,
          forgedHeadersWarning(recipient, injected?.forgedHeaderLines ?? []),
          injected?.delivered === false ? NO_HUMAN_MESSAGE : undefined,
        ]);
        const delivered: TaskContext = warning === undefined ? context : { ...context, warning };
        const child: LangGraphRunnableConfig = {
          ...config,
          context: { ...config?.context, [TASK_CONTEXT_KEY]: delivered },
          metadata: {
            ...config?.metadata,
            ...(context.found ? { [TASK_CONTEXT_METADATA_KEY]: receiptOf(context, warning) } : {}),
          },
        };
        const input = injected?.state ?? state;
        const output =
          typeof wrapped === "function"
            ? await wrapped(input, child)
            : await wrapped.invoke(input, child);
        return injected === undefined ? output : injected.restore(output);
      },
    );
  };
}
