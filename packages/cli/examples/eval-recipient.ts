// A recipient for `task-context eval`: a module whose named exports are recipients.

import type { Recipient } from "@task-context/cli/eval";
import { injectTaskContext, loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";

/** Your model call; here it answers with the request's first line. */
async function callModel(request: string): Promise<{ text: string; tokens: number }> {
  return { text: request.split("\n")[0] ?? "", tokens: Math.ceil(request.length / 4) };
}

//#region recipient
/**
 * Loads CONTEXT.md from the trial's workspace exactly as production does: there is none under
 * the condition "none", the whole file under "full", the view's text under "view:<name>".
 */
export const reader: Recipient = async ({ prompt, workspace }) => {
  const context = await loadTaskContext(nodeWorkspace(workspace), { required: false });
  return callModel(injectTaskContext(prompt, context.content === "" ? undefined : context));
};
//#endregion
