// The official MCP conformance suite against the service's /mcp on loopback: 0.1.16, and
// 0.2.0-alpha.12 at the 2025-11-25 and 2026-07-28 requirement sets, each run one process of the
// suite (the three at once). Every scenario that applies is its own test, failing when any check
// of it fails or warns, except the few that need the suite's fixtures (FIXTURE_CHECKS). The
// suite tests a server by URL and sends no bearer token, so it reaches /mcp through a loopback
// proxy that adds an agent's token and passes everything else on as sent (Host and Origin
// included, for the DNS-rebinding scenario). The scenarios that do not apply, and why: docs/mcp.md, "Conformance".
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type ConformanceRun,
  type ExcusedChecks,
  FIXTURE_CHECKS,
  SUITE_TEST_MS,
  scenarioProblems,
  startConformanceRuns,
} from "@task-context/mcp-conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun, runInput, taskStage } from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";
import { overSocket } from "./services.ts";

/** The 2025-era scenarios that apply to the service's /mcp (stateless: no session). */
const HANDSHAKE_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "dns-rebinding-protection",
] as const;

/** Each run of the suite and the scenarios of it that apply to /mcp. */
const EXPECTATIONS: ReadonlyArray<{
  name: string;
  run: ConformanceRun;
  scenarios: readonly string[];
}> = [
  { name: "0.1.16", run: { release: "0.1.16" }, scenarios: HANDSHAKE_SCENARIOS },
  {
    name: "0.2.0-alpha.12 at 2025-11-25",
    run: { release: "0.2.0-alpha.12", revision: "2025-11-25" },
    scenarios: HANDSHAKE_SCENARIOS,
  },
  {
    name: "0.2.0-alpha.12 at 2026-07-28",
    run: { release: "0.2.0-alpha.12", revision: "2026-07-28" },
    scenarios: [
      "server-stateless",
      "tools-list",
      "resources-list",
      "sep-2164-resource-not-found",
      "caching",
      "server-sse-multiple-streams",
      "dns-rebinding-protection",
      "http-header-validation",
    ],
  },
];

/** Beside the suite's fixture checks, one check that assumes prompts. */
const EXCUSED_CHECKS: ExcusedChecks = {
  ...FIXTURE_CHECKS,
  "caching:sep-2549-prompts-list-caching-hints":
    "/mcp has no prompts: prompts/list is -32601, as any method it does not offer",
};

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
let runs: ReturnType<typeof startConformanceRuns>;

beforeAll(async () => {
  service = await overSocket();
  const fixture = await createRun(service, runInput([taskStage("draft")]));
  const { token } = await fixture.agent("conformance");
  if (token === undefined) throw new Error("the agent has no token");
  proxy = await tokenProxy(service.baseUrl, token);
  const { port } = proxy.address() as AddressInfo;
  runs = startConformanceRuns(`http://127.0.0.1:${port}/mcp`, EXPECTATIONS);
});
afterAll(async () => {
  await Promise.allSettled(runs?.values() ?? []);
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await service.stop();
}, SUITE_TEST_MS);

describe.each(EXPECTATIONS)(
  "the MCP conformance suite $name against the service's /mcp",
  ({ name, scenarios }) => {
    it.each(scenarios)("passes %s", { timeout: SUITE_TEST_MS }, async (scenario) => {
      const outcomes = await runs.get(name);
      expect(outcomes && scenarioProblems(outcomes, scenario, EXCUSED_CHECKS)).toEqual([]);
    });
  },
);
