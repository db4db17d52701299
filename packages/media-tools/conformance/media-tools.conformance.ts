// Conformance of @task-context/media-tools' built output on Node 24, Bun, Deno and raw workerd
// (no nodejs_compat). Not Node 20: the AI SDK 7 this package is built on needs Node ≥ 22.
import { CONTEXT_MISSING_MESSAGE, memoryWorkspace } from "@task-context/core";
import { createMediaTools, taskContextMiddleware } from "@task-context/media-tools";
import { generateText, type ImageModel, type Tool, wrapLanguageModel } from "ai";
import { MockImageModelV4, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";

const CONTEXT = "We are building Lumen. LUMEN in images is the wordmark.";
/** The receipt of CONTEXT (SHA-256 of its UTF-8 bytes), spelled out: each runtime hashes it itself. */
const CONTEXT_SHA256 = "edeff27efecd990f371e4e8433d27a081ae9318008fe642d8fb5b5b4529f17fb";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const injected = (prompt: string) => `[Task Context]\n${CONTEXT}\n\n[Request]\n${prompt}`;

function languageModel() {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text: "LUMEN." }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      },
      warnings: [],
    }),
  });
}

function imageModel() {
  const prompts: (string | undefined)[] = [];
  const model = new MockImageModelV4({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      return {
        images: [PNG],
        warnings: [],
        response: { timestamp: new Date(0), modelId: "mock", headers: {} },
      };
    },
  });
  // The mock declares optional members as `T | undefined`, which exactOptionalPropertyTypes refuses.
  return { model: model as unknown as Exclude<ImageModel, string>, prompts };
}

async function call(tool: Tool, input: unknown): Promise<Record<string, unknown>> {
  expect(tool.execute).toBeTruthy();
  return (await tool.execute?.(input, { toolCallId: "1", messages: [], context: {} })) as Record<
    string,
    unknown
  >;
}

describe("@task-context/media-tools", () => {
  it("Tool receives task context: read_media sends the injected prompt beside the image", async () => {
    const understanding = languageModel();
    const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT, "home.jpg": PNG });
    const tools = createMediaTools({ workspace, models: { understanding } });
    const result = await call(tools.read_media as Tool, {
      path: "home.jpg",
      prompt: "Header?",
    });
    expect(result).toStrictEqual({
      success: true,
      tool: "understand_image",
      path: "home.jpg",
      mediaType: "image/png",
      size: PNG.length,
      text: "LUMEN.",
      contextSha256: CONTEXT_SHA256,
    });
    const message = understanding.doGenerateCalls[0]?.prompt[0];
    expect(message?.role).toBe("user");
    expect(message?.content[0]).toMatchObject({ type: "text", text: injected("Header?") });
    expect(message?.content[1]).toMatchObject({ type: "file" });
  });

  it("generate_media writes the image into the workspace", async () => {
    const { model, prompts } = imageModel();
    const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT });
    const tools = createMediaTools({ workspace, models: { image: model } });
    const result = await call(tools.generate_media as Tool, { type: "image", prompt: "Logo." });
    expect(result.success).toBe(true);
    expect(prompts).toStrictEqual([injected("Logo.")]);
    const written = await workspace.readFile(String(result.path));
    expect(written.bytes).toStrictEqual(PNG);
  });

  it("Tool fails without CONTEXT.md", async () => {
    const { model, prompts } = imageModel();
    const tools = createMediaTools({
      workspace: memoryWorkspace(),
      models: { image: model },
    });
    expect(await call(tools.generate_image as Tool, { prompt: "Logo." })).toStrictEqual({
      success: false,
      error: `${CONTEXT_MISSING_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`,
      code: "TASK_CONTEXT_MISSING",
    });
    expect(prompts.length).toBe(0);
  });

  it("times out on the runtime's clock", async () => {
    const understanding = new MockLanguageModelV4({ doGenerate: () => new Promise(() => {}) });
    const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT, "a.png": PNG });
    const tools = createMediaTools({ workspace, models: { understanding }, timeoutMs: 20 });
    const result = await call(tools.understand_image as Tool, { path: "a.png", prompt: "?" });
    expect(result.code).toBe("TIMEOUT");
  });

  it("taskContextMiddleware injects the context into a wrapped model's call", async () => {
    const model = languageModel();
    const wrapped = wrapLanguageModel({
      model,
      middleware: taskContextMiddleware({
        workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }),
      }),
    });
    await generateText({ model: wrapped, prompt: "Headlines?" });
    const prompt = model.doGenerateCalls[0]?.prompt ?? [];
    expect(prompt.length).toBe(1);
    const message = prompt[0];
    expect(message?.role).toBe("user");
    expect(message?.content[0]).toMatchObject({ type: "text", text: injected("Headlines?") });
  });
});
