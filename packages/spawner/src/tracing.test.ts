import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  deliveredContext as delivered,
  recordSpans,
  type SpanRecorder,
} from "@task-context/trace-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { childProcessRunner } from "./child-process-runner.ts";
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

/** A child process that answers with the trace context it was handed, in its notes. */
const traceEcho = (env?: Record<string, string>) =>
  childProcessRunner({
    command: process.execPath,
    args: [
      "-e",
      `process.stdout.write(JSON.stringify({ status: "success", summary: "Echoed.", "files-modified": [], notes: JSON.stringify({ traceparent: process.env.TRACEPARENT ?? null, tracestate: process.env.TRACESTATE ?? null }) }))`,
    ],
    ...(env === undefined ? {} : { env }),
  });

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

  it("hands a child process its invoke_agent span's trace context as TRACEPARENT", async () => {
    const [result] = await spawnSubagents(fixture.parent, [tasks[0] as SubagentTask], {
      // Another trace's context inherited from the environment is replaced, its state dropped.
      runner: traceEcho({
        TRACEPARENT: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        TRACESTATE: "other=1",
      }),
      workspacesRoot: fixture.workspacesRoot,
    });

    const [span] = recorder.finished();
    const { traceId, spanId } = span?.spanContext() ?? {};
    expect(JSON.parse(result?.notes ?? "")).toStrictEqual({
      traceparent: `00-${traceId}-${spanId}-01`,
      tracestate: null,
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

  it("adds no trace context to a child process's environment", async () => {
    await recorder.stop();
    const [result] = await spawnSubagents(fixture.parent, [tasks[0] as SubagentTask], {
      runner: traceEcho(),
      workspacesRoot: fixture.workspacesRoot,
    });

    expect(JSON.parse(result?.notes ?? "")).toStrictEqual({ traceparent: null, tracestate: null });
  });
});
