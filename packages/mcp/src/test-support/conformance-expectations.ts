// What the workspace server must pass of the official MCP conformance suite, run by run: the
// scenarios that apply (each must pass but for the checks inside them that need the suite's own
// fixtures — FIXTURE_CHECKS of @task-context/mcp-conformance). docs/mcp.md lists the scenarios that do not apply, and why.
import type { ConformanceRun } from "@task-context/mcp-conformance";

/** One run of the suite and the scenarios of it that apply. */
export interface ConformanceExpectation {
  name: string;
  run: ConformanceRun;
  scenarios: readonly string[];
}

/** The 2025-era scenarios that apply to the workspace server, both releases. */
const HANDSHAKE_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
] as const;

/** The runs over HTTP: 0.1.16, and 0.2.0-alpha.12 at each revision's requirement set. */
export const HTTP_EXPECTATIONS: readonly ConformanceExpectation[] = [
  { name: "0.1.16", run: { release: "0.1.16" }, scenarios: HANDSHAKE_SCENARIOS },
  {
    name: "0.2.0-alpha.12 at 2025-11-25",
    run: { release: "0.2.0-alpha.12", revision: "2025-11-25" },
    scenarios: [...HANDSHAKE_SCENARIOS, "server-session-lifecycle"],
  },
  {
    name: "0.2.0-alpha.12 at 2026-07-28",
    run: { release: "0.2.0-alpha.12", revision: "2026-07-28" },
    scenarios: [
      "server-stateless",
      "tools-list",
      "resources-list",
      "prompts-list",
      "sep-2164-resource-not-found",
      "caching",
      "server-sse-multiple-streams",
      "dns-rebinding-protection",
      "http-header-validation",
    ],
  },
];

/**
 * The runs over stdio, through the loopback bridge: 0.2.0-alpha.12 at both revisions, without
 * what only HTTP has (Host and Origin, the standard request headers), which the bridge does not
 * bring to the process.
 */
export const STDIO_EXPECTATIONS: readonly ConformanceExpectation[] = HTTP_EXPECTATIONS.filter(
  (expectation) => expectation.run.release !== "0.1.16",
).map((expectation) => ({
  ...expectation,
  scenarios: expectation.scenarios.filter(
    (scenario) => scenario !== "dns-rebinding-protection" && scenario !== "http-header-validation",
  ),
}));
