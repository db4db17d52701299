// The official MCP conformance suite 0.2.0-alpha.12 against the built stdio bin at both
// revisions (the 2025-11-25 and 2026-07-28 requirement sets, at once), through the loopback
// bridge of @task-context/mcp-conformance: a process of the bin per 2025 session, one for the
// 2026-07-28 traffic, each HTTP message relayed as a JSON-RPC line. The scenarios that apply are
// those of the HTTP recipe but what only HTTP has (test-support/conformance-expectations.ts).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  FIXTURE_CHECKS,
  type StdioBridge,
  SUITE_TEST_MS,
  scenarioProblems,
  startConformanceRuns,
  startStdioBridge,
} from "@task-context/mcp-conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STDIO_EXPECTATIONS } from "./test-support/conformance-expectations.ts";
import { CONTEXT } from "./test-support/fixtures.ts";
import { BIN } from "./test-support/stdio-client.ts";

let directory: string;
let bridge: StdioBridge;
let runs: ReturnType<typeof startConformanceRuns>;

beforeAll(async () => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-conformance-")));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  bridge = await startStdioBridge({ command: process.execPath, args: [BIN, directory] });
  runs = startConformanceRuns(bridge.url, STDIO_EXPECTATIONS);
});
afterAll(async () => {
  await Promise.allSettled(runs?.values() ?? []);
  await bridge.close();
  rmSync(directory, { recursive: true, force: true });
}, SUITE_TEST_MS);

describe.each(STDIO_EXPECTATIONS)(
  "the MCP conformance suite $name against the stdio bin",
  ({ name, scenarios }) => {
    it.each(scenarios)("passes %s", { timeout: SUITE_TEST_MS }, async (scenario) => {
      const outcomes = await runs.get(name);
      expect(outcomes && scenarioProblems(outcomes, scenario, FIXTURE_CHECKS)).toEqual([]);
    });
  },
);
