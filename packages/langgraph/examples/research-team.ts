// A research team as a LangGraph graph: two subgraphs, each with its own view of the agent's
// CONTEXT.md, which their model receives before the request. Runs as pasted (docs/langgraph.md).
import { MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { CONTEXT_VIEW_PRESETS } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { withTaskContext } from "@task-context/langgraph";

const model = new ChatOpenAI({ model: "gpt-5-mini" });

/** A subgraph whose one node calls the model with the conversation so far. */
const agent = (node: string) =>
  new StateGraph(MessagesAnnotation)
    .addNode(node, async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, node)
    .compile();
const researcher = agent("research");
const writer = agent("write");
const workspace = nodeWorkspace("."); // the directory that holds CONTEXT.md

//#region withTaskContext
const graph = new StateGraph(MessagesAnnotation)
  // the researcher gets only the brief view of CONTEXT.md; the writer the whole file
  .addNode(
    "researcher",
    withTaskContext(researcher, { workspace, view: CONTEXT_VIEW_PRESETS.brief }),
  )
  .addNode("writer", withTaskContext(writer, { workspace }))
  .addEdge(START, "researcher")
  .addEdge("researcher", "writer")
  .compile();
//#endregion

const result = await graph.invoke({
  messages: [{ role: "user", content: "Draft the App Store description." }],
});
for (const message of result.messages) console.log(`${message.getType()}: ${message.content}`);
