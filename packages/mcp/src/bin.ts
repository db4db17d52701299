#!/usr/bin/env node
// task-context-mcp [directory]: serves the directory's task context over stdio. The package's own
// entry, for MCP client configurations (`npx -y @task-context/mcp .`) and the tests; the
// `task-context mcp [dir]` command of @task-context/cli runs the same serveStdio.
import { TaskContextError } from "@task-context/core";
import { serveStdio } from "./serve-stdio.ts";

const [directory = ".", ...rest] = process.argv.slice(2);
if (rest.length > 0 || directory === "--help" || directory === "-h") {
  process.stderr.write(
    "Usage: task-context-mcp [directory]\nServes the task context of directory (default: the current directory) over stdio to an MCP client.\n",
  );
  process.exit(rest.length > 0 ? 2 : 0);
}
try {
  const server = await serveStdio({ directory });
  const stop = () => void server.close();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await server.closed;
  process.exit(0);
} catch (error) {
  process.stderr.write(
    `task-context-mcp: ${TaskContextError.isInstance(error) ? error.message : String(error)}\n`,
  );
  process.exit(2);
}
