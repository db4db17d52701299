// How the demo starts the workspace MCP server for its MCP subagent: the `task-context-mcp` bin of
// @task-context/mcp, found through the package's own package.json, run by this Node.
import { access, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { McpServerCommand } from "./mcp-session.ts";

/** The bin's name in @task-context/mcp's package.json. */
export const MCP_SERVER_BIN = "task-context-mcp";

/**
 * The command that starts `task-context-mcp` over stdio (the subagent appends its directory), as
 * an MCP client's configuration names it: this Node and the bin's absolute path.
 */
export async function mcpServerCommand(): Promise<McpServerCommand> {
  const manifestUrl = import.meta.resolve("@task-context/mcp/package.json");
  const manifest = JSON.parse(await readFile(new URL(manifestUrl), "utf8")) as {
    bin?: Record<string, string>;
  };
  const bin = manifest.bin?.[MCP_SERVER_BIN];
  if (bin === undefined) {
    throw new Error(
      `@task-context/mcp names no ${MCP_SERVER_BIN} bin in ${fileURLToPath(manifestUrl)}. Reinstall with npm run demo.`,
    );
  }
  const path = fileURLToPath(new URL(bin, manifestUrl));
  await access(path).catch(() => {
    throw new Error(
      `@task-context/mcp is not built (${path} is missing). Run npm run demo, which builds the packages first.`,
    );
  });
  return { command: process.execPath, args: [path] };
}
