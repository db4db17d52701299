// Step 1: the main agent writes CONTEXT.md and builds its own system prompt.
import { CONTEXT_VIEW_PRESETS, loadTaskContext, type TaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { lintContextMd } from "@task-context/protocols/context-md";
import { measureSystemPrompt } from "@task-context/system-prompt";
import type { DemoContext } from "../demo-context.ts";
import { LAUNCH_CONTEXT_MD } from "../launch-task.ts";

/** The main agent's own instructions: the base of its system prompt. */
export const MAIN_AGENT_INSTRUCTIONS =
  "You lead the launch of Lumen 2.0. Delegate the copy, the alt text, the visual brief and the review; check what comes back against the brand rules.";

/** Writes CONTEXT.md into the main agent's workspace; returns it as loaded. */
export async function writeContext(demo: DemoContext): Promise<TaskContext> {
  const { progress, trace } = demo;
  progress.start(1, "The main agent writes CONTEXT.md and builds its system prompt");
  const workspace = nodeWorkspace(demo.workspaceRoot);
  const lint = lintContextMd(LAUNCH_CONTEXT_MD);
  //#region writeContext
  await workspace.writeFile("CONTEXT.md", LAUNCH_CONTEXT_MD);
  const context = await loadTaskContext(workspace);
  // The system prompt teaches the agent to write CONTEXT.md before it delegates: it has
  // multimodal tools and can spawn subagents, so both sections are in; and that the image model
  // receives only the media view's sections.
  const systemPrompt = measureSystemPrompt(
    {
      base: MAIN_AGENT_INSTRUCTIONS,
      tools: ["read_media", "generate_media"],
      canSpawnSubagents: true,
      views: { "the image model (`generate_media` with type image)": CONTEXT_VIEW_PRESETS.media },
    },
    demo.tokenizer,
  );
  //#endregion
  const sections = systemPrompt.sections.map((section) => `${section.id} ${section.tokens}`);
  progress.detail(
    `CONTEXT.md: ${context.content.length} characters, sha256 ${context.sha256.slice(0, 12)}, lint ${lint.ok ? "ok" : "failed"} (${lint.issues.length} issues)`,
  );
  progress.detail(
    `system prompt: ${systemPrompt.tokens} tokens (${sections.join(", ")}) in ${systemPrompt.tokenizer}`,
  );
  trace.section("1. CONTEXT.md and the main agent's system prompt");
  trace.text(
    `The main agent wrote \`CONTEXT.md\` in \`${demo.workspaceRoot}\` (${context.content.length} characters, sha256 \`${context.sha256}\`; lint: ${lint.ok ? "ok" : "failed"}, ${lint.issues.length} issues).`,
  );
  trace.block("CONTEXT.md", context.content, "markdown");
  trace.text(
    `Its system prompt, built with \`measureSystemPrompt\` from @task-context/system-prompt: ${systemPrompt.tokens} tokens (${systemPrompt.tokenizer}); sections ${sections.join(", ")}.`,
  );
  trace.block("System prompt", systemPrompt.text, "markdown");
  demo.recipients.push({
    recipient: "main agent",
    kind: "system prompt",
    contextSha256: undefined,
    tokens: systemPrompt.tokens,
    truncated: undefined,
  });
  progress.done(1, `CONTEXT.md written, system prompt ${systemPrompt.tokens} tokens`);
  return context;
}
