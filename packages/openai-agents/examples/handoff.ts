// A triage agent hands copywriting over to a writer, who receives CONTEXT.md.
import { Agent, run } from "@openai/agents";
import { nodeWorkspace } from "@task-context/core/node";
import { taskContextHandoff } from "@task-context/openai-agents";

//#region taskContextHandoff
const writer = new Agent({
  name: "Writer",
  instructions: "You write launch copy.",
  model: "gpt-5-mini",
});
const triage = new Agent({
  name: "Triage",
  instructions: "Hand copywriting requests to the writer.",
  model: "gpt-5-mini",
  // the writer receives CONTEXT.md, from the current directory, when the triage hands over
  handoffs: [taskContextHandoff(writer, { workspace: nodeWorkspace(".") })],
});
//#endregion

const result = await run(triage, "Write the launch tweet.");
console.log(result.finalOutput);
