import { CliError } from "../cli-error.ts";

/**
 * The Node the embedded SQLite store needs: node:sqlite is built in without a flag from 22.13
 * (the server's `SQLITE_NODE`; a test holds the two equal). PostgreSQL needs no SQLite: on it the
 * service runs on Node 20.
 */
export const SQLITE_NODE = "22.13";

type NodeService = typeof import("@task-context/server/node");

/**
 * The package of the delivery service: an optional peer dependency of the CLI, which only
 * `serve` and `render --for remote-agent` load, so that installing the CLI brings neither the
 * service's PostgreSQL driver nor its A2A and MCP SDKs.
 */
export const SERVER_PACKAGE = "@task-context/server";

/** Whether `error` is Node's refusal to import `name`, because no such package is installed. */
export function isNotInstalled(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === "ERR_MODULE_NOT_FOUND" &&
    typeof message === "string" &&
    message.includes(`Cannot find package '${name}'`)
  );
}

/**
 * Loads the delivery service's Node entry (a dynamic import, so that every other command starts
 * without it). It loads on Node 20: node:sqlite is loaded only when the SQLite store is opened.
 * Without `@task-context/server` installed, `command` is refused in one line that says what to
 * install (`CLI_PACKAGE_MISSING`, exit 1).
 */
export async function loadNodeService(command: string): Promise<NodeService> {
  try {
    return await import("@task-context/server/node");
  } catch (error) {
    if (!isNotInstalled(error, SERVER_PACKAGE)) throw error;
    throw new CliError({
      code: "CLI_PACKAGE_MISSING",
      message: `${command} runs the delivery service, ${SERVER_PACKAGE}, which is not installed`,
      hint: `install it beside the CLI: npm install ${SERVER_PACKAGE} (with npx: npx -p @task-context/cli -p ${SERVER_PACKAGE} task-context ${command} …)`,
      cause: error,
    });
  }
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
