// Spawning subagents that inherit the parent's CONTEXT.md, with an in-process runner.
import { functionRunner, spawnSubagents } from "@task-context/spawner";

declare function runMyAgent(prompt: string, signal: AbortSignal): Promise<string>;

//#region spawnSubagents
const results = await spawnSubagents(
  "/srv/agents/run-42", // the parent's workspace, which holds CONTEXT.md
  [
    { id: "export-1", subagentType: "implement", prompt: "Add Markdown export to the note menu." },
    {
      id: "export-1-review",
      subagentType: "review",
      prompt: "Review the export menu for accessibility.",
    },
  ],
  {
    workspacesRoot: "/srv/agents/run-42/subagents",
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
