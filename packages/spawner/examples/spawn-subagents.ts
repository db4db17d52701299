// Spawning subagents that inherit the parent's CONTEXT.md, with an in-process runner.
import { functionRunner, spawnSubagents } from "@task-context/spawner";

// Your agent: a model call with tools that work in the subagent's own directory. Here, a stand-in
// that answers at once.
async function runMyAgent(prompt: string, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  return `Done: ${prompt}`;
}

//#region spawnSubagents
const results = await spawnSubagents(
  ".", // the parent's workspace, which holds CONTEXT.md: here the current directory
  [
    { id: "export-1", subagentType: "implement", prompt: "Add Markdown export to the note menu." },
    {
      id: "export-1-review",
      subagentType: "review",
      prompt: "Review the export menu for accessibility.",
    },
  ],
  {
    // each subagent works in {workspacesRoot}/{id}; default: a new temporary directory
    runner: functionRunner(async ({ prompt, signal }) => ({
      status: "success",
      summary: await runMyAgent(prompt, signal),
      "files-modified": [],
    })),
  },
);
for (const result of results) {
  console.log(result.id, result.status, result.summary);
  if (result.warning) console.warn(result.warning); // show it to the parent agent
}
//#endregion
