import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  deliveredContext as delivered,
  recordSpans,
  type SpanRecorder,
} from "@task-context/trace-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { functionRunner } from "./function-runner.ts";
import { spawnSubagents } from "./spawn-subagents.ts";
import type { SubagentTask } from "./subagent-task.ts";
import {
  CONTEXT,
  createFixture,
  type Fixture,
  success,
  untilAborted,
} from "./test-support/fixtures.ts";

let fixture: Fixture;
let recorder: SpanRecorder;
beforeEach(async () => {
  fixture = await createFixture();
  recorder = recordSpans();
});
afterEach(async () => {
  await recorder.stop();
  await fixture.cleanup();
});

const tasks: SubagentTask[] = [
  { id: "writer", subagentType: "implement", prompt: "Write the release notes." },
  { id: "checker", subagentType: "review", prompt: "Check the release notes." },
];

/** Answers success for the writer and blocked for anyone else. */
const runner = functionRunner(({ id }) =>
  id === "writer"
    ? success("Notes written.")
    : { status: "blocked", summary: "No notes yet.", "files-modified": [] },
);

describe("spawnSubagents with an OpenTelemetry SDK registered", () => {
  it("records one invoke_agent span per subagent, with its outcome", async () => {
    await spawnSubagents(fixture.parent, tasks, {
      runner,
      workspacesRoot: fixture.workspacesRoot,
      concurrency: 1,
    });

    expect(recorder.records()).toStrictEqual([
      {
        name: "invoke_agent implement",
        scope: "@task-context/spawner",
        kind: "internal",
        parent: null,
        status: { code: "unset" },
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.id": "writer",
          "gen_ai.agent.name": "implement",
          "task_context.recipient.kind": "subagent",
          "task_context.recipient.id": "writer",
          ...delivered(CONTEXT),
          "task_context.outcome": "success",
        },
        exceptions: [],
      },
      {
        name: "invoke_agent review",
        scope: "@task-context/spawner",
        kind: "internal",
        parent: null,
        status: { code: "error", message: "No notes yet." },
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.id": "checker",
          "gen_ai.agent.name": "review",
          "task_context.recipient.kind": "subagent",
          "task_context.recipient.id": "checker",
          ...delivered(CONTEXT),
          "error.type": "blocked",
          "task_context.outcome": "blocked",
        },
        exceptions: [],
      },
    ]);
  });

  it("records a subagent stopped at its timeout, and a truncated context", async () => {
    await fixture.cleanup();
    const long = `# Task context\n${"Lumen is a note-taking app. ".repeat(40)}`.trim();
    fixture = await createFixture({ "CONTEXT.md": long });
    const [result] = await spawnSubagents(
      fixture.parent,
      [{ id: "slow", subagentType: "implement", prompt: "Take your time.", timeoutMs: 50 }],
      {
        runner: functionRunner(({ signal }) => untilAborted(signal)),
        workspacesRoot: fixture.workspacesRoot,
        load: { maxChars: 200 },
      },
    );

    expect(result?.status).toBe("timeout");
    const [record] = recorder.records();
    expect(record?.status).toStrictEqual({ code: "error", message: result?.summary });
    expect(record?.attributes).toMatchObject({
      ...delivered(long.slice(0, 200).trim(), long.length),
      "task_context.context.truncated": true,
      "error.type": "timeout",
      "task_context.outcome": "timeout",
    });
  });

  it("records no span when nothing is delivered: the parent has no CONTEXT.md", async () => {
    await rm(join(fixture.parent, "CONTEXT.md"));
    await expect(
      spawnSubagents(fixture.parent, tasks, { runner, workspacesRoot: fixture.workspacesRoot }),
    ).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING" });

    expect(recorder.records()).toStrictEqual([]);
  });
});

describe("spawnSubagents without an OpenTelemetry SDK", () => {
  it("runs the subagents and records nothing", async () => {
    await recorder.stop();
    const results = await spawnSubagents(fixture.parent, tasks, {
      runner,
      workspacesRoot: fixture.workspacesRoot,
    });

    expect(results.map(({ id, status }) => ({ id, status }))).toStrictEqual([
      { id: "writer", status: "success" },
      { id: "checker", status: "blocked" },
    ]);
    expect(recorder.finished()).toStrictEqual([]);
  });
});
