import { describe } from "vitest";
import { mcpTextSuite } from "../contract/mcp-text.contract.ts";
import { onWorkers } from "./services.ts";

describe("on workerd: the router Worker and a Durable Object per run (SQLite)", () => {
  mcpTextSuite(onWorkers);
});
