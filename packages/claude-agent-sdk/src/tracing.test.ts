import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
import { CONTEXT_VIEW_PRESETS } from "@task-context/core";
import {
  deliveredContext,
  emptyDelegationSpan,
  inApplicationSpan,
  recordSpansInEachTest,
} from "@task-context/trace-kit";
import { describe, expect, it } from "vitest";
import { taskContextHooks } from "./task-context-hooks.ts";
import { BRIEF, CONTEXT, sha256, workspaceWith } from "./test-support/fixtures.ts";
import { standInClaudeCode } from "./test-support/stand-in-claude-code.ts";

const recorder = recordSpansInEachTest();

describe(`taskContextHooks' spans on @anthropic-ai/claude-agent-sdk ${process.env.CLAUDE_AGENT_SDK_VERSION}`, () => {
  it("opens an invoke_agent span per delegation, in the trace of the code that called query()", async () => {
    const standIn = standInClaudeCode([
      {
        toolName: "Agent",
        input: { description: "d", prompt: "Find it.", subagent_type: "Explore" },
      },
      { toolName: "Agent", input: { description: "d", prompt: "Plan it.", subagent_type: "Plan" } },
    ]);
    const options: Options = {
      hooks: taskContextHooks({
        workspace: workspaceWith(),
        views: { Explore: CONTEXT_VIEW_PRESETS.brief },
      }),
      spawnClaudeCodeProcess: standIn.spawn as NonNullable<Options["spawnClaudeCodeProcess"]>,
    };
    await inApplicationSpan(async () => {
      for await (const _ of query({ prompt: "Go.", options })) {
        // the stand-in answers with one result
      }
    });

    const delivery = (agent: string) => ({
      name: `invoke_agent ${agent}`,
      scope: "@task-context/claude-agent-sdk",
      kind: "internal",
      parent: "invoke_agent main",
      status: { code: "unset" },
      exceptions: [],
    });
    const common = (agent: string) => ({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": agent,
      "task_context.recipient.kind": "subagent",
      "task_context.recipient.id": agent,
    });
    expect(recorder.records()).toStrictEqual([
      {
        ...delivery("Explore"),
        attributes: {
          ...common("Explore"),
          ...deliveredContext(BRIEF),
          "task_context.context.original_characters": BRIEF.length,
          "task_context.context.view.name": "brief",
          "task_context.context.view.sections": ["What we are building", "Key terminology"],
          "task_context.context.file_sha256": sha256(CONTEXT),
          "task_context.outcome": "success",
        },
      },
      {
        ...delivery("Plan"),
        attributes: {
          ...common("Plan"),
          ...deliveredContext(CONTEXT),
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
    expect(new Set(recorder.finished().map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("ends the span empty with required: false and no CONTEXT.md, and lets the delegation through as it is", async () => {
    const standIn = standInClaudeCode([
      {
        toolName: "Agent",
        input: { description: "d", prompt: "Find it.", subagent_type: "Explore" },
      },
    ]);
    const options: Options = {
      hooks: taskContextHooks({ workspace: workspaceWith({}), required: false }),
      spawnClaudeCodeProcess: standIn.spawn as NonNullable<Options["spawnClaudeCodeProcess"]>,
    };

    await inApplicationSpan(async () => {
      for await (const _ of query({ prompt: "Go.", options })) {
        // the stand-in answers with one result
      }
    });

    expect(standIn.record.delegations.map((delegation) => delegation.answers)).toStrictEqual([
      [{}],
    ]);
    expect(recorder.records()).toStrictEqual([
      emptyDelegationSpan("@task-context/claude-agent-sdk", "Explore"),
      expect.objectContaining({ name: "invoke_agent main", parent: null }),
    ]);
  });
});
