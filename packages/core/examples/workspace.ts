// Workspaces: in memory on every runtime, on disk with nodeWorkspace.
import { loadTaskContext, memoryWorkspace } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";

//#region memoryWorkspace
const notes = memoryWorkspace({ "CONTEXT.md": "We are building Lumen, a note-taking app." });
await loadTaskContext(notes);
//#endregion

//#region nodeWorkspace
const workspace = nodeWorkspace("."); // a directory: here the current one
const context = await loadTaskContext(workspace);
await workspace.writeFile("notes/summary.md", "Done."); // atomic, never outside the root
//#endregion
