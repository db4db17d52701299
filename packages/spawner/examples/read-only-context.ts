// CONTEXT.md is read-only in a subagent's workspace.
import { memoryWorkspace } from "@task-context/core";
import {
  ContextReadOnlyError,
  functionRunner,
  protectInheritedContext,
} from "@task-context/spawner";

//#region protectInheritedContext
const workspace = protectInheritedContext(memoryWorkspace({ "CONTEXT.md": "Building Lumen." }));
await workspace.writeFile("notes.md", "Fine.");
await workspace.writeFile("CONTEXT.md", "Mine now.").catch((error: unknown) => {
  console.error(error); // ContextReadOnlyError: Refused to write "CONTEXT.md": CONTEXT.md is read-only …
});
//#endregion

//#region contextReadOnlyError
const runner = functionRunner(async ({ workspace }) => {
  try {
    await workspace.writeFile("CONTEXT.md", "my own context");
  } catch (error) {
    if (!ContextReadOnlyError.isInstance(error)) throw error;
    await workspace.writeFile("notes.md", "CONTEXT.md should mention the new brand colour.");
  }
  return { status: "success", summary: "Left a note.", "files-modified": ["notes.md"] };
});
//#endregion
