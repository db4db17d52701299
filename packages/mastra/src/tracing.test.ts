import { CONTEXT_VIEW_PRESETS, memoryWorkspace } from "@task-context/core";
import {
  deliveredContext as delivered,
  emptyDelegationSpan,
  inApplicationSpan,
  recordSpansInEachTest,
} from "@task-context/trace-kit";
import { describe, expect, it } from "vitest";
import { taskContextDelegation } from "./task-context-delegation.ts";
import { CONTEXT, MEDIA_SECTIONS, MEDIA_VIEW, sha256, team } from "./test-support/fixtures.ts";
import { call } from "./test-support/stand-in-model.ts";

const recorder = recordSpansInEachTest();

describe("with an OpenTelemetry SDK registered", () => {
  it("records each delegation's delivery as an invoke_agent span in the application's one trace", async () => {
    const { supervisor } = team(call("agent-illustrator", { prompt: "A hero image." }));

    await inApplicationSpan(() =>
      supervisor.generate("We need a hero image.", {
        delegation: taskContextDelegation({
          workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }),
          view: CONTEXT_VIEW_PRESETS.media,
        }),
      }),
    );

    expect(recorder.records()).toEqual([
      {
        name: "invoke_agent illustrator",
        scope: "@task-context/mastra",
        kind: "internal",
        parent: "invoke_agent main",
        status: { code: "unset" },
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.name": "illustrator",
          "task_context.recipient.kind": "subagent",
          "task_context.recipient.id": "illustrator",
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

  it("ends the delegation's span empty with required: false and no CONTEXT.md, and the sub-agent still runs", async () => {
    const { supervisor, seen } = team(call("agent-illustrator", { prompt: "A hero image." }));

    await inApplicationSpan(() =>
      supervisor.generate("We need a hero image.", {
        delegation: taskContextDelegation({ workspace: memoryWorkspace(), required: false }),
      }),
    );

    expect(seen).toEqual([
      { content: "", receipt: { primitiveId: "illustrator", primitiveType: "agent" } },
    ]);
    expect(recorder.records()).toStrictEqual([
      emptyDelegationSpan("@task-context/mastra", "illustrator"),
      expect.objectContaining({ name: "invoke_agent main", parent: null }),
    ]);
  });
});
