// An in-process runner: the subagent reads its inherited CONTEXT.md and its Sage context file.
import { parseSubagentContext } from "@task-context/protocols/sage";
import { functionRunner } from "@task-context/spawner";

declare function callModel(request: {
  system: string;
  prompt: string;
  signal: AbortSignal;
}): Promise<{ summary: string; code: string }>;

//#region functionRunner
const runner = functionRunner(async ({ prompt, workspace, contextFile, signal }) => {
  const taskContext = new TextDecoder().decode((await workspace.readFile("CONTEXT.md")).bytes);
  const sage = parseSubagentContext(
    new TextDecoder().decode((await workspace.readFile(contextFile)).bytes),
  );
  const answer = await callModel({
    system: `${taskContext}\n\nScope: ${sage.scope["files-to-modify"].join(", ")}`,
    prompt,
    signal,
  });
  await workspace.writeFile("src/export.ts", answer.code);
  return { status: "success", summary: answer.summary, "files-modified": ["src/export.ts"] };
});
//#endregion
