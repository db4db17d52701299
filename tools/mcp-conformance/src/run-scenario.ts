// One scenario of the official MCP conformance suite (@modelcontextprotocol/conformance, server
// scenarios) against a server URL, as the MCP servers' tests run it: the suite's exit code and
// the checks it recorded. The suite needs Node ≥ 22 (the toolchain's Node 24 runs the tests).
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CONFORMANCE = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/conformance/dist/index.js",
);

/** One check of a scenario, as the suite writes it to `checks.json`. */
export interface ConformanceCheck {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** What a scenario did: the suite's exit code, its checks, and those that failed or warned. */
export interface ScenarioOutcome {
  exitCode: number;
  checks: ConformanceCheck[];
  /** The checks whose status is FAILURE or WARNING: a conformant server has none. */
  failed: ConformanceCheck[];
}

/** Runs `scenario` against the MCP server at `url` (e.g. `http://127.0.0.1:PORT/mcp`). */
export function runConformanceScenario(
  url: URL | string,
  scenario: string,
): Promise<ScenarioOutcome> {
  const output = mkdtempSync(join(tmpdir(), "task-context-conformance-"));
  return new Promise<ScenarioOutcome>((resolve, reject) => {
    execFile(
      process.execPath,
      [CONFORMANCE, "server", "--url", String(url), "--scenario", scenario, "-o", output],
      { timeout: 60_000 },
      (error) => {
        try {
          const [run] = readdirSync(output).filter((name) => name.includes(scenario));
          const checks = JSON.parse(
            readFileSync(join(output, String(run), "checks.json"), "utf8"),
          ) as ConformanceCheck[];
          const failed = checks.filter(
            (check) => check.status === "FAILURE" || check.status === "WARNING",
          );
          resolve({ exitCode: typeof error?.code === "number" ? error.code : 0, checks, failed });
        } catch (failure) {
          reject(error ?? failure);
        }
      },
    );
  }).finally(() => rmSync(output, { recursive: true, force: true }));
}
