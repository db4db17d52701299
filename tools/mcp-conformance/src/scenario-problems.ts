import type { ScenarioOutcome } from "./conformance-suite.ts";

/**
 * Checks of scenarios that apply which do not apply themselves, by `<scenario>:<check-id>` (the
 * suite's own baseline syntax), each with why (such as "calls the suite's fixture tool
 * test_logging_tool").
 */
export type ExcusedChecks = Readonly<Record<string, string>>;

/**
 * The checks of `server-stateless` (2026-07-28) that the suite can exercise only through its own
 * fixture tools and hooks (`test_missing_capability`, `test_streaming_elicitation`,
 * `test_logging_tool`, `test_trigger_*_change`): a server without them fails or warns on each.
 */
export const FIXTURE_CHECKS: ExcusedChecks = {
  "server-stateless:sep-2575-server-rejects-undeclared-capability":
    "calls the fixture tool test_missing_capability (our tools need no client capability)",
  "server-stateless:sep-2575-missing-capability-http-400":
    "the HTTP status of the fixture tool test_missing_capability's -32021",
  "server-stateless:sep-2575-http-server-no-independent-requests-on-stream":
    "calls the fixture tool test_streaming_elicitation (our tools never ask the client)",
  "server-stateless:sep-2575-server-no-log-without-loglevel":
    "calls the fixture tool test_logging_tool (our servers log nothing)",
  "server-stateless:sep-2575-server-sends-prompts-list-changed-on-subscription":
    "calls the fixture hook test_trigger_prompt_change to change the prompt list (ours never changes)",
  "server-stateless:sep-2575-server-sends-tools-list-changed-on-subscription":
    "calls the fixture hook test_trigger_tool_change to change the tool list (ours never changes)",
};

/**
 * What is wrong with `scenario` in a run's `outcomes`: nothing (`[]`) when it ran, at least one
 * of its checks succeeded, and every check that failed or warned is excused; otherwise a line per
 * problem (`"<check-id> FAILURE: <message>"`, `"not run"`, `"no check succeeded"`), for a test to
 * compare with `[]`.
 */
export function scenarioProblems(
  outcomes: ReadonlyMap<string, ScenarioOutcome>,
  scenario: string,
  excused: ExcusedChecks = {},
): string[] {
  const outcome = outcomes.get(scenario);
  if (outcome === undefined) return ["not run"];
  const problems = outcome.failed
    .filter((check) => excused[`${scenario}:${check.id}`] === undefined)
    .map((check) => `${check.id} ${check.status}: ${check.errorMessage ?? ""}`);
  if (!outcome.checks.some((check) => check.status === "SUCCESS")) {
    problems.push("no check succeeded");
  }
  return problems;
}
