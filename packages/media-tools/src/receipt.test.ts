// Receipts: every media tool's success result carries contextSha256, the hash of the task
// context it sent, equal to what loadTaskContext reports; a CONTEXT.md rewritten during the
// external call tells the agent that its CONTEXT.md changed. The middleware's receipt: task-context-middleware.test.ts.
import { loadTaskContext, memoryWorkspace } from "@task-context/core";
import type { Tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createMediaTools, type MediaTools } from "./index.ts";
import { allModels, CONTEXT_SHA256, call, injected, MEDIA, PNG } from "./test-support/fixtures.ts";
import { toolsOver } from "./test-support/tools-over.ts";

/** One successful call of each of the nine tools. */
const CALLS: Array<[keyof MediaTools, Record<string, unknown>]> = [
  ["read_media", { path: "media/screenshot.png", prompt: "Header?" }],
  ["generate_media", { type: "image", prompt: "A hero image." }],
  ["understand_image", { path: "media/screenshot.png", prompt: "Header?" }],
  ["understand_audio", { path: "media/standup.mp3", prompt: "Transcribe it." }],
  ["understand_video", { path: "media/demo.mp4", prompt: "Summarise it." }],
  ["understand_file", { path: "media/brief.pdf", prompt: "Deadlines?" }],
  ["generate_image", { prompt: "A hero image." }],
  ["generate_video", { prompt: "A teaser." }],
  ["generate_audio", { text: "Welcome to Lumen." }],
];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

describe("media tool receipts", () => {
  for (const [tool, input] of CALLS) {
    it(`${tool}'s result carries the sha256 loadTaskContext reports for the context it sent`, async () => {
      const { tools, workspace } = toolsOver(MEDIA, allModels());
      const result = await call(tools[tool] as Tool<unknown, unknown>, input);
      const { sha256 } = await loadTaskContext(workspace);
      expect(sha256).toBe(CONTEXT_SHA256);
      expect(result).toMatchObject({ success: true, contextSha256: CONTEXT_SHA256 });
      expect(result).not.toHaveProperty("warning");
    });
  }

  it("is the hash of the truncated content that was sent, not of the whole file", async () => {
    const long = `${"Lumen. ".repeat(1500)}`.trim();
    const workspace = memoryWorkspace({ "CONTEXT.md": long, ...MEDIA });
    const models = allModels();
    const tools = createMediaTools({ workspace, models, context: { maxChars: 100 } });
    const result = await call(tools.generate_image, { prompt: "A logo." });
    const loaded = await loadTaskContext(workspace, { maxChars: 100 });
    expect(loaded.truncated).toBe(true);
    expect(result).toMatchObject({ success: true, contextSha256: loaded.sha256 });
    expect(models.image.calls[0]?.prompt).toBe(injected("A logo.", loaded.content));
  });

  it("is absent from a failure: nothing was sent", async () => {
    const tools = createMediaTools({ workspace: memoryWorkspace(MEDIA), models: allModels() });
    const result = await call(tools.generate_image, { prompt: "A logo." });
    expect(result).toEqual({
      success: false,
      code: "TASK_CONTEXT_MISSING",
      error: expect.stringMatching(/^CONTEXT\.md not found in workspace\./),
    });
  });

  /** understand_image over a workspace whose CONTEXT.md becomes `rewritten` during the call. */
  async function understandWhileRewriting(rewritten: string) {
    const workspace = memoryWorkspace({ "CONTEXT.md": "Old brand rules.", ...MEDIA });
    const understanding = new MockLanguageModelV4({
      doGenerate: async () => {
        await workspace.writeFile("CONTEXT.md", rewritten);
        return {
          content: [{ type: "text", text: "An answer." }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      },
    });
    const tools = createMediaTools({ workspace, models: { understanding } });
    const result = await call(tools.understand_image, {
      path: "media/screenshot.png",
      prompt: "Header?",
    });
    return { workspace, result };
  }

  const sent = "71b8df4a3ab13b9c29da5849a6075e3700b222fee1969fe93b9eb23107fb718d";

  it("tells the agent that its CONTEXT.md changed during the external call", async () => {
    const { workspace, result } = await understandWhileRewriting("New brand rules.");
    const now = (await loadTaskContext(workspace)).sha256;
    expect(result).toEqual({
      success: true,
      tool: "understand_image",
      path: "media/screenshot.png",
      mediaType: "image/png",
      size: PNG.length,
      text: "An answer.",
      contextSha256: sent,
      warning: `Your CONTEXT.md changed while understand_image ran: it worked from the CONTEXT.md with sha256 ${sent.slice(0, 12)}…, yours is now sha256 ${now.slice(0, 12)}…. Check its result against your current CONTEXT.md, or run it again so that it works from the current one.`,
    });
  });

  it("tells the agent when its CONTEXT.md was emptied during the external call", async () => {
    const { result } = await understandWhileRewriting("  \n"); // whitespace only: no context
    expect(result).toMatchObject({
      success: true,
      text: "An answer.",
      contextSha256: sent,
      warning:
        "Your CONTEXT.md was removed or became unusable while understand_image ran: it worked from the CONTEXT.md with sha256 71b8df4a3ab1…. Recreate CONTEXT.md before you spawn subagents or use multimodal tools again, and check this result against the task as it is now.",
    });
  });
});
