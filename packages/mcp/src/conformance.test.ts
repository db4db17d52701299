// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, server
// scenarios) against the documented HTTP recipe (examples/http.ts) on loopback: every scenario
// that applies to the workspace server, each its own test, failing when any check of the
// scenario fails. The scenarios that do not apply, and why, are listed in docs/mcp.md. The suite
// tests servers by URL only; stdio is covered by stdio-input.test.ts and tool-errors.test.ts.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformanceScenario } from "@task-context/mcp-conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTEXT } from "./test-support/fixtures.ts";
import { startHttpRecipe } from "./test-support/http-server.ts";

/** The server scenarios of the suite that apply to the workspace server. */
const APPLICABLE_SCENARIOS = [
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

let directory: string;
let served: Awaited<ReturnType<typeof startHttpRecipe>>;

beforeAll(async () => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-conformance-")));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  served = await startHttpRecipe(directory);
});
afterAll(async () => {
  await served.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("the MCP conformance suite against the HTTP recipe", () => {
  it.each(APPLICABLE_SCENARIOS)("passes %s", async (scenario) => {
    const { exitCode, checks, failed } = await runConformanceScenario(served.url, scenario);
    expect(failed).toEqual([]);
    expect(checks.filter((check) => check.status === "SUCCESS").length).toBeGreaterThan(0);
    expect(exitCode).toBe(0);
  });
});
