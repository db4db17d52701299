// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, server
// scenarios) against the service's /mcp on loopback: every scenario that applies to it, each its
// own test, failing when any check of the scenario fails or warns. The suite tests a server by
// URL and sends no bearer token, so it reaches /mcp through a loopback proxy that adds an agent's
// token and passes everything else on as sent (Host and Origin included, for the DNS-rebinding
// scenario). The scenarios that do not apply, and why: docs/delivery-service.md, "Agents that
// speak MCP".
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { runConformanceScenario } from "@task-context/mcp-conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun, runInput, taskStage } from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";
import { overSocket } from "./services.ts";

/** The server scenarios of the suite that apply to the service's /mcp. */
export const APPLICABLE_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "dns-rebinding-protection",
] as const;

/** A loopback proxy to `target` that adds `Authorization: Bearer <token>` to every request. */
function tokenProxy(target: string, token: string): Promise<Server> {
  const { hostname, port } = new URL(target);
  const proxy = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        hostname,
        port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => proxy.listen(0, "127.0.0.1", () => resolve(proxy)));
}

let service: Service;
let proxy: Server;

beforeAll(async () => {
  service = await overSocket();
  const fixture = await createRun(service, runInput([taskStage("draft")]));
  const { token } = await fixture.agent("conformance");
  if (token === undefined) throw new Error("the agent has no token");
  proxy = await tokenProxy(service.baseUrl, token);
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await service.stop();
});

describe("the MCP conformance suite against the service's /mcp", () => {
  it.each(APPLICABLE_SCENARIOS)(
    "passes %s",
    async (scenario) => {
      const { port } = proxy.address() as AddressInfo;
      const { exitCode, checks, failed } = await runConformanceScenario(
        `http://127.0.0.1:${port}/mcp`,
        scenario,
      );
      expect(failed).toEqual([]);
      expect(checks.filter((check) => check.status === "SUCCESS").length).toBeGreaterThan(0);
      expect(exitCode).toBe(0);
    },
    90_000,
  );
});
