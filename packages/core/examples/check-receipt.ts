// Comparing the context hash a recipient quotes with the current one.
import { checkReceipt, loadTaskContext, memoryWorkspace } from "@task-context/core";

const workspace = memoryWorkspace({ "CONTEXT.md": "Lumen: notes app. Tone: calm." });
// What a subagent answered, quoting the hash of the CONTEXT.md it was given yesterday.
const output = {
  status: "success",
  summary: "Wrote the launch copy.",
  "context-sha256": "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
};

//#region checkReceipt
const { sha256 } = await loadTaskContext(workspace);
const receipt = checkReceipt({
  quoted: output["context-sha256"],
  current: sha256,
  recipient: 'subagent "review-1"',
});
if (receipt.status === "stale") console.warn(receipt.warning);
// Stale context: subagent "review-1" worked from context sha256 2c26b46b68ff…, but the current
// context is sha256 fc8d83d4670e…; check its result against the current context.
//#endregion
