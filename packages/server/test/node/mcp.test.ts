import { describe } from "vitest";
import { mcpSuite } from "../contract/mcp.contract.ts";
import { mcpRevisionsSuite } from "../contract/mcp-revisions.contract.ts";
import { inProcess, overSocket } from "./services.ts";

describe("on Node, over a socket (127.0.0.1), SQLite file", () => {
  mcpSuite(overSocket);
  mcpRevisionsSuite(overSocket);
});

describe("on Node, in process (app.request), SQLite in memory", () => {
  mcpRevisionsSuite(inProcess);
});
