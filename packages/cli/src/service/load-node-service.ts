import { CliError } from "../cli-error.ts";

/** The Node the delivery service needs: node:sqlite is built in from 22.13, stable enough from 22.18. */
export const SERVICE_NODE = "22.18";

/** Whether `version` (`"20.20.2"`) is at least `minimum` (`"22.18"`). */
export function nodeAtLeast(version: string, minimum: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [wantMajor = 0, wantMinor = 0] = minimum.split(".").map(Number);
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

/**
 * Loads the delivery service's Node entry (bundled into the CLI, in a chunk of its own) when
 * the running Node has node:sqlite; on an older Node, fails with one line naming the Node it
 * needs. Every other command works without it, on Node 20.
 */
export async function loadNodeService(
  command: string,
  version = process.versions.node,
): Promise<typeof import("@task-context/server/node")> {
  if (!nodeAtLeast(version, SERVICE_NODE)) {
    throw new CliError({
      code: "CLI_NODE_TOO_OLD",
      message: `${command} needs Node ≥ ${SERVICE_NODE} (for its built-in SQLite); this is Node ${version}`,
      hint: `install Node ${SERVICE_NODE} or later (Node 24 is the current LTS); every other command works on Node 20`,
    });
  }
  return import("@task-context/server/node");
}
