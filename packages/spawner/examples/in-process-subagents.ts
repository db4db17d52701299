// In-process subagents with every spawn option: the runner reads its Sage context file.
import { parseSubagentContext } from "@task-context/protocols/sage";
import { functionRunner, spawnSubagents } from "@task-context/spawner";

// Your agent loop: a model call with tools that read and write the subagent's workspace.
declare function runMyAgent(request: {
  prompt: string;
  task: string;
  signal: AbortSignal;
}): Promise<{ summary: string; files: string[] }>;

//#region inProcessSubagents
const controller = new AbortController();
const results = await spawnSubagents(
  "/srv/agents/run-42", // the parent's workspace: a directory, or any Workspace
  [
    { id: "export-1", subagentType: "implement", prompt: "Add Markdown export to the note menu." },
    {
      id: "export-1-review",
      subagentType: "review",
      prompt: "Review the export menu for accessibility.",
    },
  ],
  {
    workspacesRoot: "/srv/agents/run-42/subagents", // each subagent gets {workspacesRoot}/{id}
    runner: functionRunner(async ({ prompt, workspace, contextFile, signal }) => {
      // The Sage context file holds XML: decode its bytes, then parse it.
      const xml = new TextDecoder().decode((await workspace.readFile(contextFile)).bytes);
      const context = parseSubagentContext(xml);
      const answer = await runMyAgent({ prompt, task: context.task.description, signal });
      return { status: "success", summary: answer.summary, "files-modified": answer.files };
    }),
    project: {
      version: 1,
      project: { path: "/srv/lumen", stack: "nextjs-prisma", commands: { test: "npm test" } },
      conventions: { summary: "TypeScript strict. Zod on every input." },
    },
    concurrency: 4, // default 4
    timeoutMs: 300_000, // default 600 000 (ten minutes); a task's own timeoutMs wins
    signal: controller.signal,
  },
);
for (const result of results) if (result.warning) console.warn(result.id, result.warning);
//#endregion
