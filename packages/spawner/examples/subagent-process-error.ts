// A runner called directly throws SubagentProcessError when its process fails.
import {
  childProcessRunner,
  type SubagentInvocation,
  SubagentProcessError,
} from "@task-context/spawner";

declare const invocation: SubagentInvocation;

//#region subagentProcessError
try {
  await childProcessRunner({ command: "my-agent" }).run(invocation);
} catch (error) {
  if (SubagentProcessError.isInstance(error)) console.error(error.message, error.log);
}
//#endregion
