// The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios)
// against a server URL, as the MCP servers' tests run it. Two releases are installed side by side
// (aliased dependencies): 0.1.16, and 0.2.0-alpha.12, which knows the 2026-07-28 revision and
// runs each revision's requirement set at that revision's wire (the 2025 initialize handshake,
// or 2026's per-request _meta). Each run is one process of the suite, however many scenarios it
// has. The suite needs Node ≥ 22 (the toolchain's Node 24 runs the tests).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The releases of the suite the tests run, each installed under its own alias. */
export const CONFORMANCE_RELEASES = ["0.1.16", "0.2.0-alpha.12"] as const;
/** A release of the suite: {@link CONFORMANCE_RELEASES}. */
export type ConformanceRelease = (typeof CONFORMANCE_RELEASES)[number];
/** A revision of the MCP specification that 0.2.0-alpha.12 has a requirement set for. */
export type ProtocolRevision = "2025-11-25" | "2026-07-28";

const require = createRequire(import.meta.url);
const entry = (release: ConformanceRelease) =>
  require.resolve(`mcp-conformance-${release}/dist/index.js`);

/** One check of a scenario, as the suite writes it to `checks.json`. */
export interface ConformanceCheck {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** What a scenario did: its checks, and those that failed or warned. */
export interface ScenarioOutcome {
  checks: ConformanceCheck[];
  /** The checks whose status is FAILURE or WARNING: a conformant server has none. */
  failed: ConformanceCheck[];
}

/** Which scenarios one run of the suite runs. */
export interface ConformanceRun {
  release: ConformanceRelease;
  /**
   * With 0.2.0-alpha.12: the revision whose requirement set runs (`--requirements`), each
   * scenario at that revision's wire. Without it (and always with 0.1.16): every scenario of the
   * release (`--suite all`), at the 2025 wire.
   */
  revision?: ProtocolRevision | undefined;
}

/**
 * How long one run of the suite may take before it is killed and judged on the scenarios it
 * finished. It bounds a hang and asserts no speed: with both cores of a CI machine busy, a run
 * of the 2025 requirement set against the stdio bin took over 180 s.
 */
export const SUITE_GUARD_MS = 600_000;

/** A test that awaits a run of the suite: the run's guard, and a minute to judge it. */
export const SUITE_TEST_MS = SUITE_GUARD_MS + 60_000;

/** `server-<scenario>-<timestamp>`: the folder the suite writes a scenario's checks to. */
const SCENARIO_FOLDER = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * The outcome of every scenario a run wrote to `output`, by scenario name. A scenario whose
 * folder has no `checks.json` did not finish (the run was killed): it has no outcome, which its
 * test reports as not run.
 */
function readOutcomes(output: string): Map<string, ScenarioOutcome> {
  const outcomes = new Map<string, ScenarioOutcome>();
  for (const folder of readdirSync(output)) {
    const scenario = SCENARIO_FOLDER.exec(folder)?.[1];
    const file = join(output, folder, "checks.json");
    if (scenario === undefined || !existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, "utf8")) as ConformanceCheck[];
    const failed = checks.filter(
      (check) => check.status === "FAILURE" || check.status === "WARNING",
    );
    outcomes.set(scenario, { checks, failed });
  }
  return outcomes;
}

/** Runs the suite's CLI with `selection` against `url` in one process; the outcomes it wrote. */
function runSuite(
  release: ConformanceRelease,
  url: URL | string,
  selection: string[],
): Promise<Map<string, ScenarioOutcome>> {
  const output = mkdtempSync(join(tmpdir(), "task-context-conformance-"));
  return new Promise<Map<string, ScenarioOutcome>>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [entry(release), "server", "--url", String(url), ...selection, "-o", output],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    // The end of what it printed, for the error when it wrote no outcome.
    let printed = "";
    const keep = (chunk: Buffer) => {
      printed = (printed + chunk.toString()).slice(-16_384);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const guard = setTimeout(() => child.kill("SIGKILL"), SUITE_GUARD_MS);
    child.on("error", (error) => {
      clearTimeout(guard);
      reject(error);
    });
    // "exit", not "close": a killed run's pipes may stay open in processes it started.
    child.on("exit", (code, signal) => {
      clearTimeout(guard);
      // The exit code says whether every scenario passed; the tests judge scenario by scenario.
      const outcomes = readOutcomes(output);
      if (outcomes.size > 0) resolve(outcomes);
      else {
        const ended =
          signal === "SIGKILL" ? `killed after ${SUITE_GUARD_MS} ms` : `exit ${code ?? signal}`;
        reject(new Error(`The suite wrote no outcome (${ended}).\n${printed}`));
      }
    });
  }).finally(() => rmSync(output, { recursive: true, force: true }));
}

/**
 * Runs every scenario of `run` against the MCP server at `url` (such as
 * `http://127.0.0.1:PORT/mcp`) in one process of the suite: each scenario's outcome by name.
 */
export function runConformanceSuite(
  url: URL | string,
  { release, revision }: ConformanceRun,
): Promise<Map<string, ScenarioOutcome>> {
  if (revision !== undefined && release === "0.1.16") {
    throw new Error("0.1.16 has no requirement sets: run it without a revision.");
  }
  const selection = revision === undefined ? ["--suite", "all"] : ["--requirements", revision];
  return runSuite(release, url, selection);
}

/**
 * Starts every run of `runs` against `url` at once (each its own process of the suite): each
 * run's outcomes by its name, for tests to await. A run that fails rejects only where awaited.
 */
export function startConformanceRuns(
  url: URL | string,
  runs: ReadonlyArray<{ name: string; run: ConformanceRun }>,
): Map<string, Promise<Map<string, ScenarioOutcome>>> {
  const started = new Map<string, Promise<Map<string, ScenarioOutcome>>>();
  for (const { name, run } of runs) {
    const outcomes = runConformanceSuite(url, run);
    outcomes.catch(() => {});
    started.set(name, outcomes);
  }
  return started;
}
