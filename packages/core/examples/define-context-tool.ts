// A tool whose every call carries the task context, invisibly to the model.
import { defineContextTool, type Workspace } from "@task-context/core";

declare const workspace: Workspace;
declare function callVisionModel(prompt: string): Promise<string>;

//#region defineContextTool
const understandImage = defineContextTool({
  name: "understand_image",
  description: "Answer a question about an image.",
  parameters: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
  workspace,
  async execute(input: { prompt: string }, { prependTaskContext }) {
    return { text: await callVisionModel(prependTaskContext(input.prompt)) };
  },
});

const result = await understandImage.execute({ prompt: "What does the header say?" });
// { success: true, text: "…" }                   — the context went with the prompt
// { success: true, text: "…", warning: "…" }     — CONTEXT.md was truncated
// { success: false, error: "CONTEXT.md not found …", code: "TASK_CONTEXT_MISSING" } — nothing sent
//#endregion
