import { CliError } from "../cli-error.ts";

/**
 * The Node the embedded SQLite store needs: node:sqlite is built in without a flag from 22.13
 * (the server's `SQLITE_NODE`; a test holds the two equal). PostgreSQL needs no SQLite: on it the
 * service runs on Node 20.
 */
export const SQLITE_NODE = "22.13";

type NodeService = typeof import("@task-context/server/node");

/**
 * Loads the delivery service's Node entry (bundled into the CLI, in a chunk of its own, so that
 * every other command starts without it). It loads on Node 20: node:sqlite is loaded only when
 * the SQLite store is opened.
 */
export function loadNodeService(): Promise<NodeService> {
  return import("@task-context/server/node");
}

/**
 * Starts the service with `options`; on a Node without node:sqlite, an SQLite store is refused
 * in one line naming the Node it needs (`CLI_NODE_TOO_OLD`, exit 1), for `command`, with
 * `alternative` (what else works on this Node) in the hint.
 */
export async function startNodeService(
  service: NodeService,
  options: Parameters<NodeService["startNodeServer"]>[0],
  { command, alternative }: { command: string; alternative?: string },
): Promise<Awaited<ReturnType<NodeService["startNodeServer"]>>> {
  try {
    return await service.startNodeServer(options);
  } catch (error) {
    if (!service.SqliteUnavailableError.isInstance(error)) throw error;
    throw new CliError({
      code: "CLI_NODE_TOO_OLD",
      message: `${command} needs Node ≥ ${error.requiredNode} for the service's embedded SQLite (node:sqlite); this is Node ${error.nodeVersion}`,
      hint: `install Node ${error.requiredNode} or later (Node 24 is the current LTS)${alternative === undefined ? "" : `, or ${alternative}`}; every other command works on Node 20`,
      cause: error,
    });
  }
}
