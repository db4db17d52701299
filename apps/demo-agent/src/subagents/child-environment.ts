// What the demo hands its child-process subagents besides the spawner's TASK_CONTEXT_* variables.

/** The variable with the model settings (JSON `ModelSettings`): the child reaches the same models. */
export const MODELS_VARIABLE = "TASK_CONTEXT_DEMO_MODELS";

/** The variable with the absolute path of the screenshot the child writes alt text for. */
export const SCREENSHOT_VARIABLE = "TASK_CONTEXT_DEMO_SCREENSHOT";

/** The file in the child's directory where it leaves its model exchanges, for the trace. */
export const EXCHANGES_FILE = "model-exchanges.json";

/**
 * The variable with the command that starts the workspace MCP server (JSON `{ command, args }`,
 * as in an MCP client's configuration); the MCP subagent appends its own directory to `args`.
 */
export const MCP_SERVER_VARIABLE = "TASK_CONTEXT_DEMO_MCP_SERVER";

/** The file in the MCP subagent's directory where it records what it read over MCP, for the trace. */
export const MCP_SESSION_FILE = "mcp-session.json";

/**
 * The file in a child subagent's directory where it leaves its OpenTelemetry spans (OTLP/JSON)
 * when its parent handed it a trace to continue (`TRACEPARENT`).
 */
export const SPANS_FILE = "spans.json";

/**
 * The file in the MCP subagent's directory where the MCP server it starts (with
 * `--import record-mcp-server-spans.ts`) leaves its spans.
 */
export const MCP_SERVER_SPANS_FILE = "mcp-server-spans.json";
