// The official MCP conformance suite against the documented HTTP recipe (examples/http.ts) on
// loopback: 0.1.16, and 0.2.0-alpha.12 at the 2025-11-25 and 2026-07-28 requirement sets, each
// run one process of the suite (the three at once). Every scenario that applies is its own test,
// failing when any check of it fails or warns, except the few that need the suite's fixtures
// (FIXTURE_CHECKS). The scenarios: test-support/conformance-expectations.ts; docs/mcp.md lists
// those that do not apply, and why.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  FIXTURE_CHECKS,
  SUITE_TEST_MS,
  scenarioProblems,
  startConformanceRuns,
} from "@task-context/mcp-conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTTP_EXPECTATIONS } from "./test-support/conformance-expectations.ts";
import { CONTEXT } from "./test-support/fixtures.ts";
import { startHttpRecipe } from "./test-support/http-server.ts";

let directory: string;
let served: Awaited<ReturnType<typeof startHttpRecipe>>;
let runs: ReturnType<typeof startConformanceRuns>;

beforeAll(async () => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-conformance-")));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  served = await startHttpRecipe(directory);
  runs = startConformanceRuns(served.url, HTTP_EXPECTATIONS);
});
afterAll(async () => {
  await Promise.allSettled(runs?.values() ?? []);
  await served.close();
  rmSync(directory, { recursive: true, force: true });
}, SUITE_TEST_MS);

describe.each(HTTP_EXPECTATIONS)(
  "the MCP conformance suite $name against the HTTP recipe",
  ({ name, scenarios }) => {
    it.each(scenarios)("passes %s", { timeout: SUITE_TEST_MS }, async (scenario) => {
      const outcomes = await runs.get(name);
      expect(outcomes && scenarioProblems(outcomes, scenario, FIXTURE_CHECKS)).toEqual([]);
    });
  },
);
