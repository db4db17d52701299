// The MCP servers' conformance tooling: the official suite (two releases) against a URL, what is
// wrong with a scenario's outcome, and a loopback HTTP front for a server that speaks stdio.
export * from "./conformance-suite.ts";
export * from "./scenario-problems.ts";
export * from "./stdio-bridge.ts";
