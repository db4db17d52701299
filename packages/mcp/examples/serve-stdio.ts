// The stdio entry: what `task-context mcp [dir]` and the package's `task-context-mcp` bin run.
import { serveStdio } from "@task-context/mcp/stdio";

//#region serveStdio
const server = await serveStdio({ directory: process.argv[2] ?? "." });
process.on("SIGTERM", () => void server.close());
await server.closed; // the client closed stdin
//#endregion
