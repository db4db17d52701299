// The comparison of worker-startup.bench.ts: the Worker of apps/edge (bundled with its
// wrangler.jsonc) with the MCP SDK imported at startup, as every isolate evaluated it before
// /mcp loaded it on its first request. The same code as apps/edge's bundle; only when the SDK
// runs differs.
import "@modelcontextprotocol/server";

export { default, RunObject } from "@task-context/server/workers";
