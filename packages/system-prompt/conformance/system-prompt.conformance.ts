// Conformance of @task-context/system-prompt's built output on Node 20, Node 24, Bun, Deno and workerd.
import { approximateTokenizer } from "@task-context/core";
import { assert, defineSuite } from "@task-context/runtime-matrix/harness";
import {
  buildSystemPrompt,
  contextReceiverInstructions,
  EXAMPLE_CONTEXT_MD,
  measureSystemPrompt,
} from "@task-context/system-prompt";

export default defineSuite({
  package: "@task-context/system-prompt",
  cases: [
    {
      name: "Agent receives CONTEXT.md instructions when multimodal tools or subagents are available",
      run() {
        const withTools = buildSystemPrompt({ base: "Base.", tools: ["read_media"] });
        assert.ok(withTools.startsWith("Base.\n\n## Task context (CONTEXT.md)\n"));
        assert.ok(withTools.includes(`\`\`\`markdown\n${EXAMPLE_CONTEXT_MD}\n\`\`\``));
        const withSubagents = buildSystemPrompt({ base: "Base.", canSpawnSubagents: true });
        assert.ok(withSubagents.includes("- Before you spawn a subagent."));
        assert.ok(
          withSubagents.includes(
            "<context>\nversion: 1\nproject:\n  path: /Users/dev/code/project\n",
          ),
        );
        assert.equal(buildSystemPrompt({ base: "Base.", tools: ["web_search"] }), "Base.");
      },
    },
    {
      name: "builds the same text on every runtime",
      run() {
        const text = buildSystemPrompt({
          base: "Base.",
          tools: ["generate_image"],
          canSpawnSubagents: true,
        });
        assert.equal(text.length, 3074);
        assert.equal(
          measureSystemPrompt({ tools: ["generate_image"] }, approximateTokenizer).sections.length,
          1,
        );
      },
    },
    {
      name: "gives subagents the receiving rules",
      run() {
        const text = contextReceiverInstructions();
        assert.ok(text.startsWith("## Receiving project context (Context Protocol v1)\n"));
        assert.ok(text.includes("read-only copy of your parent's CONTEXT.md"));
      },
    },
  ],
});
