// Telling an agent that its own CONTEXT.md changed while a recipient worked from the earlier one.
import { contextChangedWarning, loadTaskContext, memoryWorkspace } from "@task-context/core";

const workspace = memoryWorkspace({ "CONTEXT.md": "Lumen: notes app. Tone: calm." });

//#region contextChangedWarning
const given = await loadTaskContext(workspace); // what the subagent was given
// … the subagent runs; meanwhile the agent rewrites its CONTEXT.md …
await workspace.writeFile("CONTEXT.md", "Lumen: notes app. Tone: playful.");
const now = await loadTaskContext(workspace, { required: false });
const warning = contextChangedWarning({
  recipient: 'subagent "review-1"',
  given: given.sha256,
  current: now.found ? now.sha256 : undefined,
});
if (warning !== undefined) console.warn(warning);
// Your CONTEXT.md changed while subagent "review-1" ran: it worked from the CONTEXT.md with
// sha256 fc8d83d4670e…, yours is now sha256 1923bad17287…. Check its result against your
// current CONTEXT.md, or run it again so that it works from the current one.
//#endregion
