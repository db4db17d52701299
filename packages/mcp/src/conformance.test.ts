// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, server
// scenarios) against the documented HTTP recipe (examples/http.ts) on loopback: every scenario
// that applies to the workspace server, each its own test, failing when any check of the
// scenario fails. The scenarios that do not apply, and why, are listed in docs/mcp.md. The suite
// tests servers by URL only; stdio is covered by stdio-input.test.ts and tool-errors.test.ts.
import { execFile } from "node:child_process";
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

const CONFORMANCE = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/conformance/dist/index.js",
);

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** Runs one scenario against `url`: the suite's exit code and its checks. */
function runScenario(url: URL, scenario: string, output: string) {
  return new Promise<{ exitCode: number; checks: Check[] }>((resolve, reject) => {
    execFile(
      process.execPath,
      [CONFORMANCE, "server", "--url", url.href, "--scenario", scenario, "-o", output],
      { timeout: 60_000 },
      (error) => {
        try {
          const [run] = readdirSync(output).filter((name) => name.includes(scenario));
          const checks = JSON.parse(
            readFileSync(join(output, String(run), "checks.json"), "utf8"),
          ) as Check[];
          resolve({ exitCode: typeof error?.code === "number" ? error.code : 0, checks });
        } catch (failure) {
          reject(error ?? failure);
        }
      },
    );
  });
}

let directory: string;
let output: string;
let served: Awaited<ReturnType<typeof startHttpRecipe>>;

beforeAll(async () => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-conformance-")));
  output = mkdtempSync(join(tmpdir(), "task-context-conformance-results-"));
  writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  served = await startHttpRecipe(directory);
});
afterAll(async () => {
  await served.close();
  rmSync(directory, { recursive: true, force: true });
  rmSync(output, { recursive: true, force: true });
});

describe("the MCP conformance suite against the HTTP recipe", () => {
  it.each(APPLICABLE_SCENARIOS)("passes %s", async (scenario) => {
    const { exitCode, checks } = await runScenario(served.url, scenario, output);
    const failed = checks.filter(
      (check) => check.status === "FAILURE" || check.status === "WARNING",
    );
    expect(failed).toEqual([]);
    expect(checks.filter((check) => check.status === "SUCCESS").length).toBeGreaterThan(0);
    expect(exitCode).toBe(0);
  });
});
