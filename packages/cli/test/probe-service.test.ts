// The delivery service's paths of the probe: a work item claimed by a polling agent and the same
// run's item sent to an A2A agent (the official SDK's server), on a service started in process.
import { runContextSha256 } from "@task-context/protocols";
import { describe, expect, it } from "vitest";
import {
  A2A_PATH,
  plantCanary,
  probePassed,
  probePaths,
  probeRun,
  servicePaths,
  WORK_ITEM_PATH,
} from "../src/probe/index.ts";
import { CONTEXT, workspace } from "./probe-workspace.ts";

describe("servicePaths", () => {
  it("passes on a correct project: the work item and the A2A message carry the canary whole, with the item's receipt", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const { paths, skipped } = await servicePaths();
    expect(skipped).toStrictEqual([]);
    expect(paths.map((path) => path.name)).toStrictEqual([WORK_ITEM_PATH, A2A_PATH]);
    const results = await probePaths({ workspace: directory, paths });
    const receipt = results[0]?.receipt;
    const sections = { expected: 2, arrived: 2, dropped: [] };
    expect(results).toStrictEqual([
      { path: WORK_ITEM_PATH, received: true, verbatim: true, truncated: false, receipt, sections },
      { path: A2A_PATH, received: true, verbatim: true, truncated: false, receipt, sections },
    ]);
    expect(receipt).toMatch(/^[0-9a-f]{64}$/);
    expect(probePassed(results)).toBe(true);
  });

  it("the receipt is the run context's hash of the item built from the canary CONTEXT.md", async (context) => {
    const canary = await plantCanary(workspace(context, { "CONTEXT.md": CONTEXT }));
    context.onTestFinished(canary.remove);
    const { paths } = await servicePaths();
    const workItem = paths.find((path) => path.name === WORK_ITEM_PATH);
    const delivery = await workItem?.send(canary);
    const [stage] = probeRun(canary.content.trim()).stages;
    const expected = await runContextSha256({
      goal: probeRun("").goal,
      constraints: [],
      stage_context: {
        stage_description: stage?.stage_description ?? "",
        expected_output: stage?.expected_output ?? "",
        available_skills: [],
        background: canary.content.trim(),
      },
    });
    expect(delivery).toMatchObject({ receipt: expected });
  });

  it("reports a work item and an A2A message without the context (a run that leaves it out), exit status failing", async (context) => {
    const directory = workspace(context, { "CONTEXT.md": CONTEXT });
    const { paths } = await servicePaths({
      run: (text) => {
        const run = probeRun(text);
        return { ...run, stages: run.stages.map(({ background, ...stage }) => stage) };
      },
    });
    const results = await probePaths({ workspace: directory, paths });
    expect(results.map(({ receipt, ...rest }) => rest)).toStrictEqual([
      {
        path: WORK_ITEM_PATH,
        received: false,
        verbatim: false,
        reason: "the canary did not arrive",
      },
      { path: A2A_PATH, received: false, verbatim: false, reason: "the canary did not arrive" },
    ]);
    expect(probePassed(results)).toBe(false);
  });

  it("reports both paths of a workspace without CONTEXT.md with the message the load gave", async (context) => {
    const directory = workspace(context, { "notes.md": "no context" });
    const { paths } = await servicePaths();
    const results = await probePaths({ workspace: directory, paths });
    expect(results).toStrictEqual([
      {
        path: WORK_ITEM_PATH,
        received: false,
        verbatim: false,
        error: expect.stringMatching(/^CONTEXT\.md not found in workspace\./),
      },
      {
        path: A2A_PATH,
        received: false,
        verbatim: false,
        error: expect.stringMatching(/^CONTEXT\.md not found in workspace\./),
      },
    ]);
  });
});
