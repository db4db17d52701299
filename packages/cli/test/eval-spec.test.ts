import { describe, expect, it } from "vitest";
import { parseEvalSpec, parseEvalSpecText } from "../src/eval/eval-spec.ts";
import { EvaluationError } from "../src/eval/evaluation-error.ts";

const valid = {
  recipients: { vision: { module: "./recipients.mjs" } },
  tasks: [{ id: "wordmark", prompt: "What is it?", checks: [{ regex: "product" }] }],
  conditions: ["none", "full", "view:brief"],
  trials: 3,
};

/** The message of the EvaluationError `parseEvalSpec` throws for `spec`. */
function problem(spec: unknown): string {
  try {
    parseEvalSpec(spec, "eval.yaml");
  } catch (error) {
    if (!EvaluationError.isInstance(error)) throw error;
    expect(error.code).toBe("EVAL_SPEC_INVALID");
    return error.message;
  }
  throw new Error("the spec was accepted");
}

describe("parseEvalSpec", () => {
  it("accepts a valid spec and gives its fields back", () => {
    expect(parseEvalSpec(valid)).toStrictEqual(valid);
  });

  it.each([
    [
      "a missing trials",
      { ...valid, trials: undefined },
      "eval.yaml: trials: required; set trials to a whole number from 1 to 10000",
    ],
    [
      "an unknown field",
      { ...valid, trails: 3 },
      'eval.yaml: (the spec): unknown field "trails"; see docs/eval.md for the spec\'s fields',
    ],
    [
      "a check of no known form",
      { ...valid, tasks: [{ ...valid.tasks[0], checks: [{ contains: "x" }] }] },
      "eval.yaml: tasks[0].checks[0]: not a check; write one of { exact }, { regex, flags? }, { json_schema }, { judge, rubric }",
    ],
    [
      "a condition of no known form",
      { ...valid, conditions: ["none", "all"] },
      'eval.yaml: conditions[1]: a condition is "none", "full" or "view:<name>"; use "none", "full" or "view:<name>"',
    ],
    [
      "a view that is neither defined nor a preset",
      { ...valid, conditions: ["none", "view:press"] },
      'eval.yaml: conditions[1]: no view "press"; define it under `views:` or use one of "view:media", "view:brief"',
    ],
    [
      "a regular expression that does not compile",
      { ...valid, tasks: [{ ...valid.tasks[0], checks: [{ regex: "(" }] }] },
      "eval.yaml: tasks[0].checks[0].regex: not a regular expression (Invalid regular expression: /(/: Unterminated group); fix the pattern; in YAML, quote it with single quotes",
    ],
    [
      "a judge the spec does not name",
      {
        ...valid,
        tasks: [{ ...valid.tasks[0], checks: [{ judge: "grader", rubric: "Names the product." }] }],
      },
      'eval.yaml: tasks[0].checks[0].judge: no judge "grader"; name it under `judges:`',
    ],
    [
      "a task id used twice",
      { ...valid, tasks: [valid.tasks[0], valid.tasks[0]] },
      'eval.yaml: tasks[1].id: "wordmark" is used twice; give every task its own id',
    ],
    [
      "a task for a recipient the spec does not name",
      { ...valid, tasks: [{ ...valid.tasks[0], recipients: ["vision", "image"] }] },
      'eval.yaml: tasks[0].recipients[1]: no recipient "image"; use one of "vision", or add it under `recipients:`',
    ],
    [
      "a recipient that no task is for",
      {
        ...valid,
        recipients: { vision: {}, image: {} },
        tasks: [{ ...valid.tasks[0], recipients: ["vision"] }],
      },
      "eval.yaml: recipients.image: no task is for it (every task names its recipients, and none names it); add it to a task's `recipients`, or remove it",
    ],
    [
      "no recipient",
      { ...valid, recipients: {} },
      "eval.yaml: recipients: no recipient; name at least one recipient: `recipients: { vision: { module: ./recipients.mjs } }`",
    ],
  ])("refuses %s, naming the field and what to do", (_what, spec, message) => {
    expect(problem(spec)).toBe(message);
  });

  it("takes a view the spec defines before a preset of the same name", () => {
    const spec = parseEvalSpec({
      ...valid,
      conditions: ["none", "view:brief"],
      views: { brief: { include: ["Key terminology"] } },
    });
    expect(spec.views).toStrictEqual({ brief: { include: ["Key terminology"] } });
  });
});

describe("parseEvalSpecText", () => {
  it("reads YAML", () => {
    const text =
      "recipients:\n  vision: { module: ./r.mjs }\ntasks:\n  - id: t\n    prompt: p\n    checks: [{ exact: x }]\ntrials: 2\n";
    expect(parseEvalSpecText(text).trials).toBe(2);
  });

  it("names the line of a YAML syntax error", () => {
    expect(() => parseEvalSpecText("trials: [1\n", "eval.yaml")).toThrow(
      /^eval\.yaml:2:1: YAML syntax error: .+; fix the YAML or JSON there$/,
    );
  });

  it("refuses YAML aliases", () => {
    expect(() => parseEvalSpecText("a: &x 1\nb: *x\n", "eval.yaml")).toThrow(
      /^eval\.yaml:1:1: YAML error/,
    );
  });
});
