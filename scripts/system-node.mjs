// The machine's own Node (the one a fresh machine has: Node 20 here), as opposed to the pinned
// Node 24 of the toolchain, which pnpm puts first on PATH and which npm runs scripts with once
// node_modules exists. The runtime tests and the install check prove the packages on it.
import { existsSync } from "node:fs";
import { delimiter, join, sep } from "node:path";

const insideNodeModules = (path) => path.split(sep).includes("node_modules");

/**
 * $TASK_CONTEXT_SYSTEM_NODE unless it is a Node inside node_modules, else the first `node` on PATH
 * outside node_modules, else /usr/bin/node.
 */
export function systemNode() {
  const fromEnvironment = process.env.TASK_CONTEXT_SYSTEM_NODE;
  if (fromEnvironment && !insideNodeModules(fromEnvironment)) return fromEnvironment;
  for (const directory of (process.env.PATH ?? "").split(delimiter)) {
    if (!directory || insideNodeModules(directory)) continue;
    const candidate = join(directory, "node");
    if (existsSync(candidate)) return candidate;
  }
  return "/usr/bin/node";
}
