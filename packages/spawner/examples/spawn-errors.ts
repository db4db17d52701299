// Errors thrown before any subagent starts.
import {
  type SubagentRunner,
  SubagentSetupError,
  SubagentWorkspaceExistsError,
  spawnSubagents,
} from "@task-context/spawner";

declare const runner: SubagentRunner;

//#region spawnErrors
try {
  await spawnSubagents("/srv/agents/run-42", [{ id: "a", prompt: "Do a." }], {
    runner,
    workspacesRoot: "/srv/agents/run-42/subagents",
  });
} catch (error) {
  if (SubagentWorkspaceExistsError.isInstance(error)) console.error("reused ids:", error.paths);
  else if (SubagentSetupError.isInstance(error)) console.error(error.systemCode, error.message);
  else throw error;
}
//#endregion
