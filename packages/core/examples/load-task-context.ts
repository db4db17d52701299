// Loading CONTEXT.md and injecting it into a prompt.
import { injectTaskContext, loadTaskContext, memoryWorkspace } from "@task-context/core";

//#region loadTaskContextFromDirectory
const context = await loadTaskContext("."); // Node, Bun, Deno: a directory, here the current one
const prompt = injectTaskContext("What does the header of this screenshot say?", context);
// "[Task Context]\n{CONTEXT.md}\n\n[Request]\nWhat does the header of this screenshot say?"
if (context.warning) console.warn(context.warning); // e.g. truncated from 12000 to 10000 characters
//#endregion

//#region loadTaskContext
const inMemory = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "Building Lumen." }));
injectTaskContext("Describe this screenshot.", inMemory);
// "[Task Context]\nBuilding Lumen.\n\n[Request]\nDescribe this screenshot."
//#endregion
