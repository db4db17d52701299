// Step 3's subagent built with an agent framework: LangGraph, through @task-context/langgraph.
// Shows its receipt (from the run's metadata) beside what its model received on the wire.
import { injectTaskContext, loadTaskContext, splitTaskContext } from "@task-context/core";
import type { DemoContext } from "../demo-context.ts";
import { contextHashOf, externalPrompt } from "../external-prompt.ts";
import { LANGGRAPH_SUBAGENT, runLangGraphSubagent } from "../subagents/langgraph-subagent.ts";

/** How the LangGraph subagent is named in the progress, the trace and the table. */
export const LANGGRAPH_RUNNER = "LangGraph subgraph";

/**
 * Runs the LangGraph subagent on the main agent's workspace, prints and traces what it received,
 * and adds its row; returns whether it answered.
 */
export async function langGraphSubagent(demo: DemoContext): Promise<boolean> {
  const { progress, trace, models, tokenizer } = demo;
  const first = models.exchanges.length;
  const run = await runLangGraphSubagent(demo.workspaceRoot, models);
  const exchange = models.exchanges.slice(first).at(-1);
  const prompt = externalPrompt(exchange);
  const { receipt } = run;
  if (receipt === undefined) throw new Error("the LangGraph subagent's run carried no receipt");
  const onWire = await contextHashOf(prompt);
  const view = receipt.contextView;
  // The stand-in's draft opens with the request as a heading: its first line of prose says more.
  const said = run.answer.split("\n").find((line) => line.trim() !== "" && !line.startsWith("#"));
  progress.detail(`${LANGGRAPH_SUBAGENT} (${LANGGRAPH_RUNNER}): ${said ?? run.answer}`);
  progress.detail(
    `  receipt in the run's metadata: sha256 ${receipt.contextSha256.slice(0, 12)}, view ${view?.name ?? "none"} (${view?.sections.join(", ") ?? "the whole file"}; file sha256 ${view?.fileSha256.slice(0, 12) ?? "-"}); its model received that [Task Context] (sha256 ${onWire?.slice(0, 12) ?? "none"}) and the node read it from LangGraph's runtime context (sha256 ${run.received?.sha256.slice(0, 12) ?? "none"})`,
  );
  trace.text(
    `### ${LANGGRAPH_SUBAGENT} (${LANGGRAPH_RUNNER})\n\nA LangGraph subgraph added to the main agent's graph with \`withTaskContext\` of \`@task-context/langgraph\`; its node calls LangChain's ChatOpenAI on the demo's provider (${exchange?.path}).`,
  );
  trace.block("Its receipt, from the run's metadata", JSON.stringify(receipt, null, 2), "json");
  trace.block("Prompt its model received", prompt);
  trace.block("Its answer", run.answer);
  demo.recipients.push({
    recipient: `subagent ${LANGGRAPH_SUBAGENT}`,
    kind: `subagent (${LANGGRAPH_RUNNER})`,
    contextSha256: receipt.contextSha256,
    tokens: tokenizer.count(prompt),
    truncated: run.received?.truncated,
    ...(view === undefined
      ? {}
      : {
          view: view.name,
          // what it would have received with the whole CONTEXT.md
          tokensWithoutViews: tokenizer.count(
            injectTaskContext(
              splitTaskContext(prompt).prompt,
              await loadTaskContext(demo.workspaceRoot),
            ),
          ),
        }),
  });
  return run.answer !== "";
}
