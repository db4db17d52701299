// Conformance of @task-context/system-prompt's built output on Node 20, Node 24, Bun, Deno and workerd.
import { approximateTokenizer, CONTEXT_VIEW_PRESETS } from "@task-context/core";
import {
  buildSystemPrompt,
  contextReceiverInstructions,
  EXAMPLE_CONTEXT_MD,
  measureSystemPrompt,
} from "@task-context/system-prompt";
import { describe, expect, it } from "vitest";

describe("@task-context/system-prompt", () => {
  it("Agent receives CONTEXT.md instructions when multimodal tools or subagents are available", () => {
    const withTools = buildSystemPrompt({ base: "Base.", tools: ["read_media"] });
    expect(withTools.startsWith("Base.\n\n## Task context (CONTEXT.md)\n")).toBe(true);
    expect(withTools).toContain(`\`\`\`markdown\n${EXAMPLE_CONTEXT_MD}\n\`\`\``);
    const withSubagents = buildSystemPrompt({ base: "Base.", canSpawnSubagents: true });
    expect(withSubagents).toContain("- Before you spawn a subagent.");
    expect(withSubagents).toContain(
      "<context>\nversion: 1\nproject:\n  path: /Users/dev/code/project\n",
    );
    expect(buildSystemPrompt({ base: "Base.", tools: ["web_search"] })).toBe("Base.");
  });

  it("builds the same text on every runtime", () => {
    const text = buildSystemPrompt({
      base: "Base.",
      tools: ["generate_image"],
      canSpawnSubagents: true,
    });
    expect(text.length).toBe(3211);
    expect(
      measureSystemPrompt({ tools: ["generate_image"] }, approximateTokenizer).sections.length,
    ).toBe(1);
  });

  it("gives subagents the receiving rules", () => {
    const text = contextReceiverInstructions();
    expect(text.startsWith("## Receiving project context (Context Protocol v1)\n")).toBe(true);
    expect(text).toContain("read-only copy of your parent's CONTEXT.md");
  });

  it("tells which recipient sees which sections of CONTEXT.md when views are given", () => {
    const text = buildSystemPrompt({
      tools: ["generate_image"],
      views: { generate_image: CONTEXT_VIEW_PRESETS.media },
    });
    expect(text).toContain(
      '\n\n### What each recipient sees of CONTEXT.md\n\nSome recipients receive only some sections of CONTEXT.md — a section runs from its heading to the next heading of the same or a higher level:\n- generate_image: the sections "What we are building", "Key terminology", "Visual and brand guidelines" (view "media").\n',
    );
  });
});
