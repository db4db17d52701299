// The complete example of docs/openai-agents.md: a triage agent hands the request over to a
// writer, who asks an illustrator (an agent used as a tool) for the hero image. The writer gets
// CONTEXT.md, the illustrator its media view; each delivery's receipt is printed.
import { Agent, run } from "@openai/agents";
import { CONTEXT_VIEW_PRESETS } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import {
  type TaskContextReceipt,
  taskContextAgentTool,
  taskContextHandoff,
} from "@task-context/openai-agents";

const workspace = nodeWorkspace("."); // the current directory, which holds CONTEXT.md
const printReceipt = ({ agent, route, contextSha256, contextView }: TaskContextReceipt) =>
  console.log(`${agent} (${route}): ${contextView?.name ?? "CONTEXT.md"} ${contextSha256}`);

const illustrator = new Agent({
  name: "Illustrator",
  instructions: "You describe the images of the launch page.",
  model: "gpt-5-mini",
});
const writer = new Agent({
  name: "Writer",
  instructions: "You write the launch copy. Ask the illustrator for its image first.",
  model: "gpt-5-mini",
  modelSettings: { toolChoice: "required" },
  tools: [
    taskContextAgentTool(illustrator, {
      toolName: "illustrate",
      toolDescription: "Describes an image for the launch page.",
      workspace,
      view: CONTEXT_VIEW_PRESETS.media, // what we are building, key terms, brand rules
      onDelivery: printReceipt,
    }),
  ],
});
const triage = new Agent({
  name: "Triage",
  instructions: "Hand every request over to the writer.",
  model: "gpt-5-mini",
  modelSettings: { toolChoice: "required" },
  handoffs: [taskContextHandoff(writer, { workspace, onDelivery: printReceipt })],
});

const result = await run(triage, "Write the launch tweet, with a hero image.");
console.log(result.finalOutput);
