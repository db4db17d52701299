import { trace } from "@opentelemetry/api";
import { CONTEXT_VIEW_PRESETS, memoryWorkspace } from "@task-context/core";
import { deliverToAgent } from "@task-context/core/tracing";
import { deliveredContext, recordSpansInEachTest } from "@task-context/trace-kit";
import { describe, expect, it } from "vitest";

const BRIEF = "## What we are building\nHarbor, a billing service for marinas.";
const CONTEXT = `${BRIEF}\n\n## Other details\nMoney is in integer cents.`;
const RECIPIENT = {
  "gen_ai.operation.name": "invoke_agent",
  "gen_ai.agent.name": "Explore",
  "task_context.recipient.kind": "subagent",
  "task_context.recipient.id": "Explore",
};

describe("deliverToAgent with an OpenTelemetry SDK registered", () => {
  const recorder = recordSpansInEachTest();

  it("loads CONTEXT.md in an invoke_agent span, records it and its view, and delivers inside the span", async () => {
    const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT });
    const load = { view: CONTEXT_VIEW_PRESETS.brief };

    const result = await deliverToAgent(
      { tracer: "@task-context/test", agent: "Explore", workspace, load },
      (context) => {
        trace.getTracer("framework").startSpan("the agent's run").end();
        return context.content;
      },
    );

    expect(result).toBe(BRIEF);
    const [run, delivery] = recorder.records();
    expect(run).toEqual(
      expect.objectContaining({ name: "the agent's run", parent: "invoke_agent Explore" }),
    );
    expect(delivery).toStrictEqual({
      name: "invoke_agent Explore",
      scope: "@task-context/test",
      kind: "internal",
      parent: null,
      status: { code: "unset" },
      attributes: {
        ...RECIPIENT,
        ...deliveredContext(BRIEF),
        "task_context.context.original_characters": BRIEF.length,
        "task_context.context.view.name": "brief",
        "task_context.context.view.sections": ["What we are building"],
        "task_context.context.file_sha256": expect.stringMatching(/^[0-9a-f]{64}$/),
        "task_context.outcome": "success",
      },
      exceptions: [],
    });
  });

  it("hands a context not found (required: false) to the delivery, and ends the span empty", async () => {
    const found = await deliverToAgent(
      {
        tracer: "@task-context/test",
        agent: "Explore",
        workspace: memoryWorkspace(),
        load: { required: false },
      },
      (context) => context.found,
    );

    expect(found).toBe(false);
    expect(recorder.records()[0]).toStrictEqual({
      name: "invoke_agent Explore",
      scope: "@task-context/test",
      kind: "internal",
      parent: null,
      status: { code: "unset" },
      attributes: { ...RECIPIENT, "task_context.outcome": "empty" },
      exceptions: [],
    });
  });

  it("lets a delivery without a context (required: false) fail its span all the same", async () => {
    await deliverToAgent(
      {
        tracer: "@task-context/test",
        agent: "Explore",
        workspace: memoryWorkspace(),
        load: { required: false },
      },
      (_context, span) => span.fail("NO_AGENT", "The agent could not start."),
    );

    expect(recorder.records()[0]?.attributes).toStrictEqual({
      ...RECIPIENT,
      "error.type": "NO_AGENT",
      "task_context.outcome": "error",
    });
  });

  it("records a CONTEXT.md that cannot be delivered on the span, and rethrows core's error", async () => {
    const deliver = () => {
      throw new Error("not reached");
    };

    await expect(
      deliverToAgent(
        { tracer: "@task-context/test", agent: "Explore", workspace: memoryWorkspace(), load: {} },
        deliver,
      ),
    ).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING" });

    expect(recorder.records()[0]?.attributes).toStrictEqual({
      ...RECIPIENT,
      "error.type": "TASK_CONTEXT_MISSING",
      "task_context.outcome": "error",
    });
  });
});
