// Telling errors apart, also when they come from another bundled copy of the package.
import {
  loadTaskContext,
  TaskContextError,
  TaskContextMissingError,
  type Workspace,
} from "@task-context/core";

declare const workspace: Workspace;

export async function load() {
  //#region handleErrors
  try {
    return await loadTaskContext(workspace);
  } catch (error) {
    if (TaskContextMissingError.isInstance(error)) {
      // The message starts with "CONTEXT.md not found in workspace. Before using multimodal tools
      // or spawning subagents, create a CONTEXT.md file …": show it to the agent.
      return { success: false, error: error.message };
    }
    if (TaskContextError.isInstance(error)) console.error(error.code, error.message);
    throw error;
  }
  //#endregion
}
