// The examples in examples/ are what the README, the docs and the TSDoc show (kept in step by
// scripts/sync-examples.mjs) and are type-checked with the package. These tests run them as
// written, with the real SDK's query() starting a stand-in for Claude Code (the real one needs an
// API key and the network) and a memory workspace in place of the directory.
import type { Options, query as realQuery } from "@anthropic-ai/claude-agent-sdk";
import type { Workspace } from "@task-context/core";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { BRIEF, CONTEXT, sha256, workspaceWith } from "./test-support/fixtures.ts";
import {
  rewrittenPrompt,
  type StandInClaudeCode,
  standInClaudeCode,
} from "./test-support/stand-in-claude-code.ts";

const standIn = vi.hoisted(() => ({
  workspace: undefined as Workspace | undefined,
  claudeCode: undefined as StandInClaudeCode | undefined,
}));

vi.mock("@task-context/core/node", () => ({ nodeWorkspace: () => standIn.workspace }));

// The SDK's own query(), starting the stand-in rather than the bundled Claude Code.
vi.mock("@anthropic-ai/claude-agent-sdk", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@anthropic-ai/claude-agent-sdk")>();
  const query: typeof realQuery = ({ prompt, options }) =>
    actual.query({
      prompt,
      options: {
        ...options,
        mcpServersDelivery: "argv",
        spawnClaudeCodeProcess: standIn.claudeCode?.spawn as NonNullable<
          Options["spawnClaudeCodeProcess"]
        >,
      },
    });
  return { ...actual, query };
});

beforeEach(() => {
  standIn.workspace = workspaceWith();
  vi.resetModules();
});

describe("examples/review-team.ts", () => {
  it("gives Explore the brief view and the reviewer the whole file, and prints each receipt", async () => {
    standIn.claudeCode = standInClaudeCode([
      {
        toolName: "Agent",
        input: { description: "d", prompt: "Find the export.", subagent_type: "Explore" },
      },
      {
        toolName: "Agent",
        input: { description: "d", prompt: "Review it.", subagent_type: "reviewer" },
      },
    ]);
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);

    await import("../examples/review-team.ts");

    expect(logged.mock.calls).toStrictEqual([
      [`Explore: brief ${sha256(BRIEF)}`],
      [`reviewer: CONTEXT.md ${sha256(CONTEXT)}`],
      ["success"],
    ]);
    const prompts = standIn.claudeCode.record.delegations.map(({ answers }) =>
      rewrittenPrompt(answers[0]),
    );
    expect(prompts).toStrictEqual([
      `[Task Context]\n${BRIEF}\n\n[Request]\nFind the export.`,
      `[Task Context]\n${CONTEXT}\n\n[Request]\nReview it.`,
    ]);
    const agents = standIn.claudeCode.record.initialize?.agents as Record<
      string,
      { prompt: string }
    >;
    expect(agents.reviewer?.prompt).toMatch(
      /^You review changes\. Answer with the problems you find\.\n\nYour task arrives as \[Task Context\]/,
    );
    logged.mockRestore();
  });
});
