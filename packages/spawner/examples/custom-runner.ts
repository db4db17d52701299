// A runner of your own: here, a subagent behind a remote service.
import type { SubagentRunner } from "@task-context/spawner";

declare function postToAgentService(body: {
  id: string;
  prompt: string;
  directory: string;
  signal: AbortSignal;
}): Promise<string>;

//#region customRunner
const remote: SubagentRunner = {
  name: "agent-service",
  stopGraceMs: 5_000, // after a stop, wait this long for run() to settle (default 0)
  async run({ id, prompt, directory, signal }) {
    // output: the subagent output object, or its JSON text
    return { output: await postToAgentService({ id, prompt, directory, signal }) };
  },
};
//#endregion
