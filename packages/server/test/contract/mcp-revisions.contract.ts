// /mcp at both protocol revisions: resources/subscribe and resources/unsubscribe, which the
// service does not offer on a 2025-era request and which 2026-07-28 removed, are -32601 Method
// not found with or without a uri — on 2025-11-25 in a 200, on 2026-07-28 with a 404 — never the
// params guard's -32602 (the guard the workspace MCP server shares leaves a method the request's
// revision does not have to the SDK). Raw requests: the answers are JSON-RPC, not the HTTP
// routes' error body.
import { describe, expect, it } from "vitest";
import { createRun, runInput, taskStage } from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

const METHODS = ["resources/subscribe", "resources/unsubscribe"] as const;

/** What a 2026-07-28 request carries in `_meta`. */
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
};

/** The JSON-RPC message of an answer, whether sent as JSON or as one SSE event. */
function messageOf(body: string): unknown {
  const data = body.split("\n").find((line) => line.startsWith("data: "));
  return JSON.parse(data === undefined ? body : data.slice("data: ".length));
}

export function mcpRevisionsSuite(start: StartService): void {
  describe("/mcp at both protocol revisions: methods the revision does not have", () => {
    const service = suiteService(start);

    /** Posts one JSON-RPC request to /mcp as an agent of a fresh run: status and message. */
    async function post(
      revision: "2025-11-25" | "2026-07-28",
      id: number,
      method: string,
      params: Record<string, unknown>,
    ) {
      const { agent } = await createRun(service, runInput([taskStage("draft")]));
      const { token } = await agent("raw");
      const stateless = revision === "2026-07-28";
      const response = await service.fetch(`${service.baseUrl}/mcp`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": revision,
          ...(stateless && { "Mcp-Method": method }),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method,
          params: stateless ? { ...params, _meta: ENVELOPE } : params,
        }),
      });
      return { status: response.status, message: messageOf(await response.text()) };
    }

    const methodNotFound = (id: number) => ({
      jsonrpc: "2.0",
      id,
      error: { code: -32601, message: "Method not found" },
    });

    it.each(METHODS)("%s at 2025-11-25: 200 and -32601, with a uri or without", async (method) => {
      expect(await post("2025-11-25", 7, method, {})).toEqual({
        status: 200,
        message: methodNotFound(7),
      });
      expect(await post("2025-11-25", 8, method, { uri: "task-context://runs/x/context" })).toEqual(
        { status: 200, message: methodNotFound(8) },
      );
    });

    it.each(METHODS)("%s at 2026-07-28: 404 and -32601, with a uri or without", async (method) => {
      expect(await post("2026-07-28", 7, method, {})).toEqual({
        status: 404,
        message: methodNotFound(7),
      });
      expect(await post("2026-07-28", 8, method, { uri: "task-context://runs/x/context" })).toEqual(
        { status: 404, message: methodNotFound(8) },
      );
    });
  });
}
