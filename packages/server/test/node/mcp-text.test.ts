import { describe } from "vitest";
import { mcpTextSuite } from "../contract/mcp-text.contract.ts";
import { inProcess, overSocket } from "./services.ts";

describe("on Node, in process (app.request), SQLite in memory", () => {
  mcpTextSuite(inProcess);
});

describe("on Node, over a socket (127.0.0.1), SQLite file", () => {
  mcpTextSuite(overSocket);
});
