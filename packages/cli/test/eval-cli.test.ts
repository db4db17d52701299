// `task-context eval` end to end: the built binary, a spec on disk, recipients from a module.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, type TestContext } from "vitest";
import { evalFolder } from "./eval-fixtures.ts";
import { CLI, HANG_GUARD_MS, runCli } from "./run-cli.ts";

/** The built library, as the recipients module imports it. */
const EVAL_MODULE = pathToFileURL(join(CLI, "..", "eval.js")).href;

const RECIPIENTS = `import { createTranscriptionStandIn, createVisionStandIn } from ${JSON.stringify(EVAL_MODULE)};
export const vision = createVisionStandIn({ wordmark: "LUMEN", misreading: "a hospital or a clinic" });
export const transcriber = createTranscriptionStandIn({ text: "LUMEN" });
`;

const SPEC = `# Does the context help our two recipients read the launch screenshot?
recipients:
  vision: { module: ./recipients.mjs }
  transcriber: { module: ./recipients.mjs }
tasks:
  - id: wordmark
    prompt: What does the large text on the screenshot name?
    checks:
      - regex: "the product's wordmark|^LUMEN$"
conditions: [none, full, "view:brief"]
trials: 12
`;

/**
 * A folder of its own for each test (so the tests run side by side; removed by the test's own
 * `onTestFinished`, which a concurrent test must use): CONTEXT.md, the spec and
 * the recipients module; `run` runs `task-context eval …args` there.
 */
function project({ onTestFinished }: TestContext) {
  const folder = evalFolder({ "recipients.mjs": RECIPIENTS, "eval.yaml": SPEC });
  onTestFinished(() => folder.remove());
  const run = (...args: string[]) =>
    runCli(["eval", ...args], { cwd: folder.path, guardMs: HANG_GUARD_MS });
  return { folder, run };
}

/** The table's rows as cells, the time column (which the machine decides) left out. */
function cells(stdout: string): string[][] {
  return stdout
    .split("\n")
    .slice(0, 7)
    .map((line) => line.split(/ {2,}/).filter((_, index) => index !== 5));
}

describe.concurrent("task-context eval", () => {
  it("prints the table, writes the results and the report, exits 0 whatever the verdict", async (context) => {
    const { folder, run } = project(context);
    const result = await run("eval.yaml", "--report", "report.html");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(cells(result.stdout)).toStrictEqual([
      ["recipient", "condition", "pass rate", "95% interval", "tokens", "verdict"],
      ["vision", "none", "33% (4/12)", "14%–61%", "28", "baseline"],
      ["vision", "full", "92% (11/12)", "65%–99%", "117", "helps (p = 0.0094)"],
      ["vision", "view:brief", "92% (11/12)", "65%–99%", "74", "helps (p = 0.0094)"],
      ["transcriber", "none", "92% (11/12)", "65%–99%", "14", "baseline"],
      ["transcriber", "full", "0% (0/12)", "0%–24%", "105", "hurts (p < 0.0001)"],
      [
        "transcriber",
        "view:brief",
        "92% (11/12)",
        "65%–99%",
        "62",
        "no measurable difference (p = 1; same pass rate)",
      ],
    ]);
    const results = join(folder.path, "eval.results.jsonl");
    expect(result.stdout.split("\n").slice(7)).toStrictEqual([
      `72 of 72 trials recorded (72 run now, 0 resumed) in ${results}`,
      `report: ${join(folder.path, "report.html")}`,
      "",
    ]);
    expect(readFileSync(results, "utf8").trim().split("\n")).toHaveLength(72);
    const report = readFileSync(join(folder.path, "report.html"), "utf8");
    expect(report).toContain(
      "<td>vision</td><td>full</td><td>92% (11/12)</td><td>65%–99%</td><td>117</td>",
    );
    expect(report).toContain('<td class="hurts">hurts (p &lt; 0.0001)</td>');

    const again = await run("eval.yaml", "--results", "eval.results.jsonl");
    expect(again.code).toBe(0);
    expect(cells(again.stdout)).toStrictEqual(cells(result.stdout));
    expect(again.stdout).toContain("72 of 72 trials recorded (0 run now, 72 resumed)");
  });

  it.for<[string, string, string]>([
    [
      "a bad spec with the field and what to do",
      SPEC.replace("trials: 12\n", ""),
      "task-context: eval.yaml: trials: required\nhint: set trials to a whole number from 1 to 10000\n",
    ],
    [
      "a recipient its module does not export, naming the ones it does",
      SPEC.replace("transcriber: { module", "reader: { module"),
      'task-context: recipients.reader: ./recipients.mjs has no function exported as "reader"\nhint: set export to one of "transcriber", "vision"\n',
    ],
  ])("refuses %s, exit 2", async ([, spec, stderr], context) => {
    const { folder, run } = project(context);
    writeFileSync(join(folder.path, "eval.yaml"), spec);
    expect(await run("eval.yaml")).toStrictEqual({ stdout: "", stderr, code: 2 });
  });

  it("stops at the budget with the table so far, exit 1, and goes on when run again", async (context) => {
    const { folder, run } = project(context);
    writeFileSync(join(folder.path, "eval.yaml"), `${SPEC}budget: { max_calls: 12 }\n`);
    const stopped = await run("eval.yaml");
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain("12 of 72 trials recorded (12 run now, 0 resumed)");
    expect(stopped.stderr).toBe(
      "task-context: the run stopped at the budget of 12 calls (12 made): 12 of 72 trials recorded\nhint: raise the spec's budget, or run again to go on: recorded trials are not run again\n",
    );
    // The first two trials of every cell are recorded: with --trials 3 only the third runs.
    const next = await run("eval.yaml", "--trials", "3");
    expect(next.code).toBe(0);
    expect(next.stdout).toContain("18 of 18 trials recorded (6 run now, 12 resumed)");
  });
});
