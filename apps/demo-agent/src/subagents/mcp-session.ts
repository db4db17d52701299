// What the MCP subagent records of its session with the workspace server: the parent prints it
// and checks the hashes that came through MCP against the copy the spawner wrote.

/** The command that starts an MCP server over stdio, as an MCP client's configuration names it. */
export interface McpServerCommand {
  command: string;
  args: string[];
}

/** One resource read over MCP. */
export interface McpResourceRead {
  uri: string;
  /** The resource's name in `resources/list`, e.g. `CONTEXT.md`. */
  name: string;
  /** `task-context/sha256` from the content's `_meta`. */
  sha256: string;
  /** The characters of text it returned. */
  characters: number;
}

/** One tool called over MCP. */
export interface McpToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** The `sha256` of its structured content: the context it injected. */
  sha256: string;
}

/** Everything the MCP subagent did over MCP, in order. */
export interface McpSession {
  /** The server's name and version from the handshake. */
  server: { name: string; version: string };
  /** The protocol version the client and server agreed on. */
  protocolVersion: string;
  resources: McpResourceRead[];
  tools: McpToolCall[];
}
