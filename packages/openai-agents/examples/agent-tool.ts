// A lead agent asks an illustrator, used as a tool, for images; the illustrator receives the
// media view of CONTEXT.md with every request.
import { Agent, run } from "@openai/agents";
import { CONTEXT_VIEW_PRESETS } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { taskContextAgentTool } from "@task-context/openai-agents";

//#region taskContextAgentTool
const illustrator = new Agent({
  name: "Illustrator",
  instructions: "You describe images for the launch page.",
  model: "gpt-5-mini",
});
const lead = new Agent({
  name: "Lead",
  instructions: "Ask the illustrator for every image.",
  model: "gpt-5-mini",
  tools: [
    taskContextAgentTool(illustrator, {
      toolName: "illustrate",
      toolDescription: "Describes an image for the launch page.",
      workspace: nodeWorkspace("."),
      view: CONTEXT_VIEW_PRESETS.media, // what we are building, key terms, brand rules
    }),
  ],
});
//#endregion

const result = await run(lead, "We need a hero image.");
console.log(result.finalOutput);
