import { Agent, run } from "@openai/agents";
import { CONTEXT_VIEW_PRESETS, memoryWorkspace, type Workspace } from "@task-context/core";
import {
  deliveredContext as delivered,
  emptyDelegationSpan,
  inApplicationSpan,
  recordSpansInEachTest,
} from "@task-context/trace-kit";
import { describe, expect, it } from "vitest";
import { taskContextAgentTool } from "./task-context-agent-tool.ts";
import { taskContextHandoff } from "./task-context-handoff.ts";
import { CONTEXT, MEDIA_SECTIONS, MEDIA_VIEW, sha256 } from "./test-support/fixtures.ts";
import { delegate, StandInModel } from "./test-support/stand-in-model.ts";

const recorder = recordSpansInEachTest();

/** A triage agent that hands over to a writer, who asks an illustrator, used as a tool. */
function launchTeam(workspace: Workspace, required = true): Agent {
  const illustrator = new Agent({
    name: "Illustrator",
    instructions: "Describe images.",
    model: new StandInModel(delegate),
  });
  const writer = new Agent({
    name: "Writer",
    instructions: "Write.",
    model: new StandInModel(delegate),
    tools: [
      taskContextAgentTool(illustrator, {
        toolName: "illustrate",
        workspace,
        view: CONTEXT_VIEW_PRESETS.media,
        required,
      }),
    ],
  });
  return new Agent({
    name: "Triage",
    instructions: "Route.",
    model: new StandInModel(delegate),
    handoffs: [taskContextHandoff(writer, { workspace, required })],
  });
}

describe("with an OpenTelemetry SDK registered", () => {
  it("records each delivery as an invoke_agent span in the application's trace: a handoff and an agent tool", async () => {
    const triage = launchTeam(memoryWorkspace({ "CONTEXT.md": CONTEXT }));

    await inApplicationSpan(() => run(triage, "Write the launch page."));

    expect(recorder.records()).toEqual([
      {
        name: "invoke_agent Writer",
        scope: "@task-context/openai-agents",
        kind: "internal",
        parent: "invoke_agent main",
        status: { code: "unset" },
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.name": "Writer",
          "task_context.recipient.kind": "subagent",
          "task_context.recipient.id": "Writer",
          ...delivered(CONTEXT),
          "task_context.outcome": "success",
        },
        exceptions: [],
      },
      {
        name: "invoke_agent Illustrator",
        scope: "@task-context/openai-agents",
        kind: "internal",
        parent: "invoke_agent main",
        status: { code: "unset" },
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.name": "Illustrator",
          "task_context.recipient.kind": "subagent",
          "task_context.recipient.id": "Illustrator",
          ...delivered(MEDIA_VIEW),
          "task_context.context.view.name": "media",
          "task_context.context.view.sections": MEDIA_SECTIONS,
          "task_context.context.file_sha256": sha256(CONTEXT),
          "task_context.outcome": "success",
        },
        exceptions: [],
      },
      expect.objectContaining({ name: "invoke_agent main", parent: null }),
    ]);
    const traceIds = new Set(recorder.finished().map((span) => span.spanContext().traceId));
    expect(traceIds.size).toBe(1);
  });

  it("ends each delivery's span empty with required: false and no CONTEXT.md, and the agents still run", async () => {
    const triage = launchTeam(memoryWorkspace(), false);

    const result = await inApplicationSpan(() => run(triage, "Write the launch page."));

    expect(result.finalOutput).toBe("Received 0 characters of task context.");
    expect(recorder.records()).toStrictEqual([
      emptyDelegationSpan("@task-context/openai-agents", "Writer"),
      emptyDelegationSpan("@task-context/openai-agents", "Illustrator"),
      expect.objectContaining({ name: "invoke_agent main", parent: null }),
    ]);
  });

  it("records a delivery refused for want of CONTEXT.md with TASK_CONTEXT_MISSING", async () => {
    const triage = launchTeam(memoryWorkspace());

    await expect(inApplicationSpan(() => run(triage, "Go."))).rejects.toThrow(
      "CONTEXT.md not found in workspace.",
    );

    const [refused] = recorder.records();
    expect(refused).toEqual(
      expect.objectContaining({
        name: "invoke_agent Writer",
        parent: "invoke_agent main",
        status: expect.objectContaining({ code: "error" }),
        attributes: expect.objectContaining({
          "error.type": "TASK_CONTEXT_MISSING",
          "task_context.outcome": "error",
        }),
      }),
    );
  });
});
