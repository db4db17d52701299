import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, describe, expect, it } from "vitest";
import { parseEvalSpec } from "../src/eval/eval-spec.ts";
import type { Recipient, RecipientRequest } from "../src/eval/recipient.ts";
import { runEval } from "../src/eval/run-eval.ts";
import { createTranscriptionStandIn, createVisionStandIn } from "../src/eval/stand-ins.ts";
import { evalFolder, manualClock } from "./eval-fixtures.ts";

let folder = evalFolder();
afterEach(() => {
  folder.remove();
  folder = evalFolder();
});

const wordmarkTask = {
  id: "wordmark",
  prompt: "What does the large text on the screenshot name?",
  checks: [{ regex: "the product's wordmark" }],
};

/** A recipient that records what it was given: the prompt and the CONTEXT.md it found. */
function recording(): Recipient & {
  seen: Array<{ request: RecipientRequest; context: string; files: string[] }>;
} {
  const seen: Array<{ request: RecipientRequest; context: string; files: string[] }> = [];
  const recipient = async (request: RecipientRequest) => {
    const context = await loadTaskContext(nodeWorkspace(request.workspace), { required: false });
    seen.push({ request, context: context.content, files: readdirSync(request.workspace).sort() });
    return { text: "ok", tokens: 10 };
  };
  return Object.assign(recipient, { seen });
}

/** A spec of the recipient "echo" and one task "a" that passes on "ok", with `fields`. */
function echoSpec(fields: Record<string, unknown>) {
  return parseEvalSpec({
    recipients: { echo: {} },
    tasks: [{ id: "a", prompt: "First.", checks: [{ exact: "ok" }] }],
    ...fields,
  });
}

describe("runEval", () => {
  it("runs every task under every condition, trials times, each with the condition's workspace", async () => {
    const recipient = recording();
    const spec = parseEvalSpec({
      recipients: { echo: {} },
      tasks: [
        { id: "a", prompt: "First.", checks: [{ exact: "ok" }] },
        { id: "b", prompt: "Second.", checks: [{ exact: "no" }] },
      ],
      conditions: ["none", "full", "view:brief"],
      trials: 2,
    });
    const run = await runEval(spec, {
      recipients: { echo: recipient },
      directory: folder.path,
      clock: manualClock(),
    });
    expect(run.planned).toBe(12);
    expect(run.ran).toBe(12);
    expect(
      run.records.map(
        (record) => `${record.trial}:${record.task}:${record.condition}:${record.pass}`,
      ),
    ).toStrictEqual([
      "0:a:none:true",
      "0:a:full:true",
      "0:a:view:brief:true",
      "0:b:none:false",
      "0:b:full:false",
      "0:b:view:brief:false",
      "1:a:none:true",
      "1:a:full:true",
      "1:a:view:brief:true",
      "1:b:none:false",
      "1:b:full:false",
      "1:b:view:brief:false",
    ]);
    const contextOf = (condition: string) =>
      recipient.seen.find((seen) => seen.request.condition === condition)?.context;
    expect(contextOf("none")).toBe("");
    expect(contextOf("full")).toBe(readFileSync(join(folder.path, "CONTEXT.md"), "utf8").trim());
    expect(contextOf("view:brief")).toBe(
      '## What we are building\nThe launch page of Lumen, a note-taking app for small teams.\n\n## Key terminology\n- **Lumen**: the product. "LUMEN" in capitals on a screenshot is the product\'s wordmark.',
    );
    // Each trial's workspace was a temporary copy, removed afterwards.
    const workspaces = new Set(recipient.seen.map((seen) => seen.request.workspace));
    expect(workspaces.size).toBe(12);
    expect(workspaces.has(folder.path)).toBe(false);
    expect(
      run.summary.map((summary) => [
        summary.condition,
        summary.passes,
        summary.trials,
        summary.meanTokens,
      ]),
    ).toStrictEqual([
      ["none", 2, 4, 10],
      ["full", 2, 4, 10],
      ["view:brief", 2, 4, 10],
    ]);
  });

  it("runs a task that names its recipients for those only, and keeps the others' trials when one is added", async () => {
    const vision = recording();
    const image = recording();
    const results = join(folder.path, "results.jsonl");
    const spec = (recipients: string[]) =>
      parseEvalSpec({
        recipients: { vision: {}, image: {} },
        tasks: [
          { id: "a", recipients, prompt: "First.", checks: [{ exact: "ok" }] },
          { id: "b", recipients: ["image"], prompt: "Second.", checks: [{ exact: "ok" }] },
        ],
        trials: 1,
      });
    const options = {
      recipients: { vision, image },
      directory: folder.path,
      resultsPath: results,
      clock: manualClock(),
    };
    const first = await runEval(spec(["vision"]), options);
    expect(first.records.map((record) => `${record.task}:${record.recipient}`)).toStrictEqual([
      "a:vision",
      "a:vision",
      "b:image",
      "b:image",
    ]);
    expect(vision.seen.map((seen) => seen.request.task)).toStrictEqual(["a", "a"]);
    expect(first.summary.map((summary) => `${summary.recipient}:${summary.trials}`)).toStrictEqual([
      "vision:1",
      "vision:1",
      "image:1",
      "image:1",
    ]);
    const second = await runEval(spec(["vision", "image"]), options);
    expect([second.planned, second.ran, second.resumed]).toStrictEqual([6, 2, 4]);
    expect(image.seen.map((seen) => seen.request.task)).toStrictEqual(["b", "b", "a", "a"]);
  });

  it("finds that the context helps the vision stand-in and hurts the transcription stand-in", async () => {
    const spec = parseEvalSpec({
      recipients: { vision: {}, transcriber: {} },
      tasks: [
        { ...wordmarkTask, id: "read", checks: [{ regex: "the product's wordmark|^LUMEN$" }] },
      ],
      conditions: ["none", "full"],
      trials: 20,
    });
    // Fresh stand-ins and clock for each run: nothing carries over but the seeds.
    const standIns = () => ({
      recipients: {
        vision: createVisionStandIn({ wordmark: "LUMEN", misreading: "a hospital or a clinic" }),
        transcriber: createTranscriptionStandIn({ text: "LUMEN" }),
      },
      directory: folder.path,
      clock: manualClock(),
    });
    const run = await runEval(spec, standIns());
    const verdicts = run.summary.map((summary) => [
      summary.recipient,
      summary.condition,
      summary.passes,
      summary.comparison?.verdict,
    ]);
    expect(verdicts).toStrictEqual([
      ["vision", "none", expect.any(Number), undefined],
      ["vision", "full", expect.any(Number), "helps"],
      ["transcriber", "none", expect.any(Number), undefined],
      ["transcriber", "full", 0, "hurts"],
    ]);
    // Deterministic given the seeds: a second run gives the same records.
    const again = await runEval(spec, standIns());
    expect(again.records.map((record) => record.answer)).toStrictEqual(
      run.records.map((record) => record.answer),
    );
  });

  it("resumes an interrupted run: recorded trials are not run again, a torn last line is", async () => {
    const results = join(folder.path, "results.jsonl");
    const spec = echoSpec({
      conditions: ["none", "full"],
      trials: 3,
      budget: { max_calls: 4 },
    });
    const first = recording();
    const stopped = await runEval(spec, {
      recipients: { echo: first },
      directory: folder.path,
      resultsPath: results,
      clock: manualClock(),
    });
    expect(stopped.stopped).toBe("the budget of 4 calls (4 made)");
    expect([stopped.ran, stopped.records.length, stopped.planned]).toStrictEqual([4, 4, 6]);
    // An interruption while the fourth line was written leaves half of it.
    const lines = readFileSync(results, "utf8").split("\n");
    writeFileSync(results, `${lines.slice(0, 3).join("\n")}\n${(lines[3] as string).slice(0, 40)}`);

    const second = recording();
    const { budget: _, ...unbounded } = spec;
    const resumed = await runEval(unbounded, {
      recipients: { echo: second },
      directory: folder.path,
      resultsPath: results,
      clock: manualClock(),
    });
    expect([resumed.ran, resumed.resumed, resumed.records.length, resumed.stopped]).toStrictEqual([
      3,
      3,
      6,
      undefined,
    ]);
    expect(
      second.seen.map((seen) => `${seen.request.trial}:${seen.request.condition}`),
    ).toStrictEqual(["1:full", "2:none", "2:full"]);
    // The workspace's copy leaves out the results file the run appends to.
    expect(second.seen[0]?.files).toStrictEqual(["CONTEXT.md"]);
    expect(
      readFileSync(results, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).trial),
    ).toStrictEqual([0, 0, 1, 1, 2, 2]);
  });

  it("refuses a results file with a line that is not a trial, and runs nothing", async () => {
    const results = join(folder.path, "results.jsonl");
    writeFileSync(results, 'not json\n{"version":1}\n');
    const recipient = recording();
    await expect(
      runEval(echoSpec({ trials: 1 }), {
        recipients: { echo: recipient },
        directory: folder.path,
        resultsPath: results,
        clock: manualClock(),
      }),
    ).rejects.toMatchObject({
      code: "EVAL_RESULTS_INVALID",
      message: `${results}:1: not JSON; name another --results file, or delete this one to run every trial again`,
    });
    expect(recipient.seen).toStrictEqual([]);
  });

  it("runs a trial again when its task or the context changed", async () => {
    const results = join(folder.path, "results.jsonl");
    const spec = echoSpec({
      conditions: ["none", "full"],
      trials: 1,
    });
    const options = {
      recipients: { echo: recording() },
      directory: folder.path,
      resultsPath: results,
      clock: manualClock(),
    };
    expect((await runEval(spec, options)).ran).toBe(2);
    expect((await runEval(spec, options)).ran).toBe(0);
    appendFileSync(join(folder.path, "CONTEXT.md"), "\nOne more line.\n");
    const edited = await runEval(spec, options);
    expect([edited.ran, edited.resumed]).toStrictEqual([1, 1]); // only `full` saw the edit
    const reworded = await runEval(
      {
        ...spec,
        tasks: [{ ...(spec.tasks[0] as (typeof spec.tasks)[number]), prompt: "Changed." }],
      },
      options,
    );
    expect([reworded.ran, reworded.resumed]).toStrictEqual([2, 0]);
  });

  it("runs trials side by side and never passes max_calls", async () => {
    // Each call waits until the calls of its group of three have all started: only trials that
    // run side by side get past it.
    let started = 0;
    let running = 0;
    let most = 0;
    const waiters: Array<() => void> = [];
    const grouped: Recipient = async () => {
      started += 1;
      running += 1;
      most = Math.max(most, running);
      if (started % 3 === 0) for (const wake of waiters.splice(0)) wake();
      else await new Promise<void>((resolve) => waiters.push(resolve));
      running -= 1;
      return { text: "ok" };
    };
    const spec = echoSpec({ trials: 10, concurrency: 3, budget: { max_calls: 6 } });
    const run = await runEval(spec, {
      recipients: { echo: grouped },
      directory: folder.path,
      clock: manualClock(),
    });
    expect([run.ran, run.calls, most, run.stopped]).toStrictEqual([
      6,
      6,
      3,
      "the budget of 6 calls (6 made)",
    ]);
    // Recorded in the spec's order, whatever order they finished in.
    expect(run.records.map((record) => `${record.trial}:${record.condition}`)).toStrictEqual([
      "0:none",
      "0:full",
      "1:none",
      "1:full",
      "2:none",
      "2:full",
    ]);
  });

  it("stops at the token budget between trials", async () => {
    const spec = echoSpec({
      trials: 5,
      budget: { max_tokens: 25 },
    });
    const run = await runEval(spec, {
      recipients: { echo: recording() },
      directory: folder.path,
      clock: manualClock(),
    });
    expect([run.ran, run.tokens, run.stopped]).toStrictEqual([
      3,
      30,
      "the budget of 25 tokens (30 reported)",
    ]);
  });

  it("never sends a secret: the prompt and text inputs are redacted", async () => {
    const key = `sk-proj-${"abC1".repeat(12)}`;
    writeFileSync(join(folder.path, "notes.txt"), `Use ${key} for the call.`);
    const recipient = recording();
    const spec = parseEvalSpec({
      recipients: { echo: {} },
      tasks: [
        { id: "a", prompt: `Call with ${key}.`, inputs: ["notes.txt"], checks: [{ exact: "ok" }] },
      ],
      conditions: ["none"],
      trials: 1,
    });
    const run = await runEval(spec, {
      recipients: { echo: recipient },
      directory: folder.path,
      clock: manualClock(),
    });
    const request = recipient.seen[0]?.request;
    expect(request?.prompt).toBe("Call with [redacted: openai-api-key].");
    expect(request?.inputs[0]?.text).toBe("Use [redacted: openai-api-key] for the call.");
    expect(run.records[0]?.redactions).toBe(2);
  });

  it("refuses an input file it cannot read before it runs anything", async () => {
    const recipient = recording();
    const spec = parseEvalSpec({
      recipients: { echo: {} },
      tasks: [{ id: "a", prompt: "Read it.", inputs: ["shot.png"], checks: [{ exact: "ok" }] }],
      trials: 1,
    });
    await expect(
      runEval(spec, {
        recipients: { echo: recipient },
        directory: folder.path,
        clock: manualClock(),
      }),
    ).rejects.toMatchObject({
      code: "EVAL_SPEC_INVALID",
      message: `task "a": cannot read input shot.png (ENOENT); inputs are relative to the spec's folder`,
    });
    expect(recipient.seen).toStrictEqual([]);
  });

  it("spaces the calls by the rate limit on its clock", async () => {
    const clock = manualClock();
    const spec = echoSpec({
      conditions: ["none"],
      trials: 3,
      rate_limit: { calls_per_minute: 30 },
    });
    await runEval(spec, { recipients: { echo: recording() }, directory: folder.path, clock });
    expect(clock.sleeps).toStrictEqual([2000, 2000]);
  });

  it("records a recipient's error, leaves it out of the pass rate and runs it again on resume", async () => {
    const results = join(folder.path, "results.jsonl");
    let fail = true;
    const flaky: Recipient = async () => {
      if (fail) throw new Error("429 Too Many Requests");
      return { text: "ok" };
    };
    const spec = parseEvalSpec({
      recipients: { flaky: {} },
      tasks: [{ id: "a", prompt: "First.", checks: [{ exact: "ok" }] }],
      conditions: ["none"],
      trials: 1,
    });
    const failed = await runEval(spec, {
      recipients: { flaky },
      directory: folder.path,
      resultsPath: results,
      clock: manualClock(),
    });
    expect(failed.records[0]?.error).toBe("429 Too Many Requests");
    expect([failed.summary[0]?.trials, failed.summary[0]?.errors]).toStrictEqual([0, 1]);
    fail = false;
    const retried = await runEval(spec, {
      recipients: { flaky },
      directory: folder.path,
      resultsPath: results,
      clock: manualClock(),
    });
    expect([retried.ran, retried.summary[0]?.passes, retried.summary[0]?.errors]).toStrictEqual([
      1, 1, 0,
    ]);
  });

  it("checks JSON against a JSON Schema and asks a judge", async () => {
    const judged: string[] = [];
    const spec = parseEvalSpec({
      recipients: { json: {} },
      judges: { grader: {} },
      tasks: [
        {
          id: "a",
          prompt: "Name the product as JSON.",
          checks: [
            {
              json_schema: {
                type: "object",
                properties: { name: { const: "Lumen" } },
                required: ["name"],
              },
            },
            { judge: "grader", rubric: "Names Lumen." },
          ],
        },
      ],
      conditions: ["none", "full"],
      trials: 1,
    });
    const run = await runEval(spec, {
      recipients: {
        json: async (request) => ({
          text: request.condition === "full" ? '{"name":"Lumen"}' : '{"name":"LUMEN"}',
        }),
      },
      judges: {
        grader: async (request) => {
          judged.push(request.prompt);
          return {
            text: /Lumen"/.test(request.prompt) ? "PASS\nIt names Lumen." : "FAIL\nWrong name.",
            tokens: 5,
          };
        },
      },
      directory: folder.path,
      clock: manualClock(),
    });
    expect(
      run.records.map((record) => [
        record.condition,
        record.pass,
        record.checks,
        record.judge_tokens,
      ]),
    ).toStrictEqual([
      [
        "none",
        false,
        [
          { check: "json_schema", pass: false, note: "/name: must be equal to constant" },
          { check: "judge:grader", pass: false, note: "FAIL" },
        ],
        5,
      ],
      [
        "full",
        true,
        [
          { check: "json_schema", pass: true },
          { check: "judge:grader", pass: true },
        ],
        5,
      ],
    ]);
    expect(judged[0]).toContain("Rubric: Names Lumen.");
    expect(run.calls).toBe(4);
  });
});
