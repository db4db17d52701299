import { describe } from "vitest";
import { mcpSuite } from "../contract/mcp.contract.ts";
import { overSocket } from "./services.ts";

describe("on Node, over a socket (127.0.0.1), SQLite file", () => {
  mcpSuite(overSocket);
});
