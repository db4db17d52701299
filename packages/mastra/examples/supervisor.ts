// A supervisor delegates to a writer and an illustrator; each receives CONTEXT.md when delegated
// to (the illustrator its media view); each delivery's receipt is printed, then what each answered.
import { Agent } from "@mastra/core/agent";
import { CONTEXT_VIEW_PRESETS } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { type TaskContextReceipt, taskContextDelegation } from "@task-context/mastra";

const illustrator = new Agent({
  id: "illustrator",
  name: "Illustrator",
  description: "Describes the images of the launch page.",
  instructions: "You describe the images of the launch page.",
  model: "openai/gpt-5-mini",
});
const supervisor = new Agent({
  id: "supervisor",
  name: "Supervisor",
  instructions: "Ask the illustrator for the hero image, then write the launch copy.",
  model: "openai/gpt-5-mini",
  agents: { illustrator },
});

const printReceipt = ({ primitiveId, contextSha256, contextView }: TaskContextReceipt) =>
  console.log(`${primitiveId}: ${contextView?.name ?? "CONTEXT.md"} ${contextSha256}`);

//#region taskContextDelegation
await supervisor.generate("Write the launch tweet, with a hero image.", {
  // every sub-agent receives CONTEXT.md from the current directory; the illustrator, its media view
  delegation: taskContextDelegation({
    workspace: nodeWorkspace("."),
    views: { illustrator: CONTEXT_VIEW_PRESETS.media },
    onDelivery: printReceipt,
    // Mastra's own delegation hooks keep working beside it
    onDelegationComplete: ({ primitiveId, result }) =>
      console.log(`${primitiveId}: ${result.text}`),
  }),
  toolChoice: "required", // delegate at once, so that the example shows a delivery
  maxSteps: 2,
});
//#endregion
