import { HumanMessage } from "@langchain/core/messages";
import { MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { CONTEXT_VIEW_PRESETS, memoryWorkspace } from "@task-context/core";
import {
  deliveredContext as delivered,
  emptyDelegationSpan,
  inApplicationSpan,
  recordSpansInEachTest,
} from "@task-context/trace-kit";
import { describe, expect, it } from "vitest";
import {
  BRIEF,
  CONTEXT,
  RecordingChatModel,
  sha256,
  workspaceWith,
} from "./test-support/fixtures.ts";
import { withTaskContext } from "./with-task-context.ts";

const recorder = recordSpansInEachTest();

/** A graph whose researcher subgraph (brief view) hands over to a nested reviewer (whole file). */
function graphWithNestedSubgraphs() {
  const workspace = workspaceWith();
  const model = new RecordingChatModel({});
  const reviewer = new StateGraph(MessagesAnnotation)
    .addNode("review", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, "review")
    .compile();
  const researcher = new StateGraph(MessagesAnnotation)
    .addNode("reviewer", withTaskContext(reviewer, { workspace }))
    .addEdge(START, "reviewer")
    .compile();
  return new StateGraph(MessagesAnnotation)
    .addNode(
      "researcher",
      withTaskContext(researcher, { workspace, view: CONTEXT_VIEW_PRESETS.brief }),
    )
    .addEdge(START, "researcher")
    .compile();
}

describe(`withTaskContext's spans on @langchain/langgraph ${process.env.LANGGRAPH_VERSION}`, () => {
  it("opens an invoke_agent span per subgraph call, nested as the subgraphs are, in the caller's trace", async () => {
    const graph = graphWithNestedSubgraphs();
    await inApplicationSpan(() =>
      graph.invoke({ messages: [new HumanMessage("Check the launch note.")] }),
    );

    const common = (name: string) => ({
      scope: "@task-context/langgraph",
      kind: "internal",
      status: { code: "unset" },
      exceptions: [],
      name: `invoke_agent ${name}`,
    });
    expect(recorder.records()).toStrictEqual([
      {
        ...common("reviewer"),
        parent: "invoke_agent researcher",
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.name": "reviewer",
          "task_context.recipient.kind": "subagent",
          "task_context.recipient.id": "reviewer",
          ...delivered(CONTEXT),
          "task_context.outcome": "success",
        },
      },
      {
        ...common("researcher"),
        parent: "invoke_agent main",
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.name": "researcher",
          "task_context.recipient.kind": "subagent",
          "task_context.recipient.id": "researcher",
          ...delivered(BRIEF),
          "task_context.context.original_characters": BRIEF.length,
          "task_context.context.view.name": "brief",
          "task_context.context.view.sections": ["What we are building", "Key terminology"],
          "task_context.context.file_sha256": sha256(CONTEXT),
          "task_context.outcome": "success",
        },
      },
      {
        name: "invoke_agent main",
        scope: "app",
        kind: "internal",
        parent: null,
        status: { code: "unset" },
        attributes: {},
        exceptions: [],
      },
    ]);
    const traces = new Set(recorder.finished().map((span) => span.spanContext().traceId));
    expect(traces.size).toBe(1);
  });

  it("ends the span empty with required: false and no CONTEXT.md, and the node still runs", async () => {
    const ran: string[] = [];
    const graph = new StateGraph(MessagesAnnotation)
      .addNode(
        "researcher",
        withTaskContext(
          () => {
            ran.push("researcher");
            return {};
          },
          { workspace: memoryWorkspace(), required: false },
        ),
      )
      .addEdge(START, "researcher")
      .compile();

    await inApplicationSpan(() => graph.invoke({ messages: [] }));

    expect(ran).toEqual(["researcher"]);
    expect(recorder.records()).toStrictEqual([
      emptyDelegationSpan("@task-context/langgraph", "researcher"),
      expect.objectContaining({ name: "invoke_agent main", parent: null }),
    ]);
  });

  it("records a refused delivery on its span, with the error's code", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode(
        "researcher",
        withTaskContext(() => ({}), { workspace: memoryWorkspace() }),
      )
      .addEdge(START, "researcher")
      .compile();

    await expect(graph.invoke({ messages: [] })).rejects.toMatchObject({
      code: "TASK_CONTEXT_MISSING",
    });

    const [span] = recorder.records();
    expect(span?.attributes).toStrictEqual({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "researcher",
      "task_context.recipient.kind": "subagent",
      "task_context.recipient.id": "researcher",
      "error.type": "TASK_CONTEXT_MISSING",
      "task_context.outcome": "error",
    });
    expect(span?.status.code).toBe("error");
  });
});
