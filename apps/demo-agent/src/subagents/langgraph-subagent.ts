// A subagent built with LangGraph: a subgraph whose one node calls the chat model with its
// conversation, added to the main agent's graph through @task-context/langgraph's withTaskContext,
// which gives it the brief view of CONTEXT.md — in its model's request, in LangGraph's runtime
// context, and as the receipt in the run's metadata. The model is LangChain's ChatOpenAI on the
// same provider as every other model of the demo (the stand-in offline), recorded on the wire.
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import {
  type LangGraphRunnableConfig,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { CONTEXT_VIEW_PRESETS, type TaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import {
  TASK_CONTEXT_METADATA_KEY,
  type TaskContextReceipt,
  taskContextOf,
  withTaskContext,
} from "@task-context/langgraph";
import { recordingFetch } from "../model-provider.ts";
import type { DemoModels } from "../models.ts";

/** The name of the LangGraph subagent: its node in the main agent's graph. */
export const LANGGRAPH_SUBAGENT = "newsletter";

/** What the LangGraph subagent is asked. */
export const LANGGRAPH_REQUEST = "Write the newsletter blurb for the launch: two sentences.";

/** What a run of the LangGraph subagent gave and received. */
export interface LangGraphRun {
  /** Its answer: the last message of the graph's state. */
  answer: string;
  /** The receipt withTaskContext put in the subgraph run's metadata. */
  receipt: TaskContextReceipt | undefined;
  /** The task context its node read from LangGraph's runtime context. */
  received: TaskContext | undefined;
}

/** Keeps the first task-context receipt in the metadata of the chain runs LangChain reports. */
class ReceiptRecorder extends BaseCallbackHandler {
  name = "task-context-receipt";
  receipt: TaskContextReceipt | undefined;

  override handleChainStart(
    _chain: unknown,
    _inputs: unknown,
    _runId: string,
    _parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    this.receipt ??= metadata?.[TASK_CONTEXT_METADATA_KEY] as TaskContextReceipt | undefined;
  }
}

/** Runs the main agent's graph with its LangGraph subagent, on the demo's models. */
export async function runLangGraphSubagent(
  workspaceRoot: string,
  models: DemoModels,
): Promise<LangGraphRun> {
  const { settings } = models;
  const model = new ChatOpenAI({
    model: settings.chatModel,
    apiKey: settings.apiKey,
    maxRetries: 0,
    configuration: {
      ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
      fetch: recordingFetch(models.exchanges),
    },
  });
  let received: TaskContext | undefined;
  const write = async (
    state: typeof MessagesAnnotation.State,
    runtime: LangGraphRunnableConfig,
  ) => {
    received = taskContextOf(runtime); // the same context, for the node's own use
    return { messages: [await model.invoke(state.messages)] };
  };
  const newsletter = new StateGraph(MessagesAnnotation)
    .addNode("write", write)
    .addEdge(START, "write")
    .compile();
  //#region langGraph
  const workspace = nodeWorkspace(workspaceRoot); // the main agent's, with its CONTEXT.md
  const graph = new StateGraph(MessagesAnnotation)
    // the newsletter subgraph's model gets the brief view: what we are building, the key terms
    .addNode(
      LANGGRAPH_SUBAGENT,
      withTaskContext(newsletter, { workspace, view: CONTEXT_VIEW_PRESETS.brief }),
    )
    .addEdge(START, LANGGRAPH_SUBAGENT)
    .compile();
  const recorder = new ReceiptRecorder(); // reads the receipt from the subgraph run's metadata
  const result = await graph.invoke(
    { messages: [{ role: "user", content: LANGGRAPH_REQUEST }] },
    { callbacks: [recorder] },
  );
  //#endregion
  const last = result.messages.at(-1);
  const answer = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
  return { answer, receipt: recorder.receipt, received };
}
