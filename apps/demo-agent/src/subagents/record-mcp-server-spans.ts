// Loaded with `node --import` into the workspace MCP server the MCP subagent starts (a process
// whose code the demo does not own): records its spans, which continue the trace each request's
// `_meta` names, into MCP_SERVER_SPANS_FILE in its working directory (the subagent's directory,
// which it inherits).
import { join } from "node:path";
import { recordChildSpans } from "../child-spans.ts";
import { MCP_SERVER_SPANS_FILE } from "./child-environment.ts";

recordChildSpans("task-context-mcp", join(process.cwd(), MCP_SERVER_SPANS_FILE));
