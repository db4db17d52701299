// One directory watch shared by any number of listeners; it opens with the first and closes with
// the last.
import { watchTaskContext } from "@task-context/mcp/stdio";

export function watchOnce(directory: string): void {
  //#region watchTaskContext
  const watcher = watchTaskContext(directory);
  const stop = watcher.subscribe(() => console.error("CONTEXT.md changed"));
  // … later
  stop();
  //#endregion
}
