// A node that calls a model itself: it reads the task context its subgraph was given from the
// runtime context. Run by src/examples.test.ts.
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { injectTaskContext } from "@task-context/core";
import { taskContextOf } from "@task-context/langgraph";

/** Stands in for your model call: returns the prompt it was given. */
async function callModel(prompt: string): Promise<string> {
  return prompt;
}

//#region taskContextOf
const summarise = async (state: { notes: string }, runtime: LangGraphRunnableConfig) => {
  const prompt = injectTaskContext(`Summarise: ${state.notes}`, taskContextOf(runtime));
  // "[Task Context]\n{CONTEXT.md, or the subgraph's view of it}\n\n[Request]\nSummarise: …"
  return { summary: await callModel(prompt) };
};

//#endregion

export { summarise };
