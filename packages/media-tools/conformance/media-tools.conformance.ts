// Conformance of @task-context/media-tools' built output on Node 24, Bun, Deno and raw workerd
// (no nodejs_compat). Not Node 20: the AI SDK 7 this package is built on needs Node ≥ 22.
import { CONTEXT_MISSING_MESSAGE, memoryWorkspace } from "@task-context/core";
import { createMediaTools, taskContextMiddleware } from "@task-context/media-tools";
import { assert, defineSuite } from "@task-context/runtime-matrix/harness";
import { generateText, type ImageModel, type Tool, wrapLanguageModel } from "ai";
import { MockImageModelV4, MockLanguageModelV4 } from "ai/test";

const CONTEXT = "We are building Lumen. LUMEN in images is the wordmark.";
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
  assert.ok(tool.execute);
  return (await tool.execute(input, { toolCallId: "1", messages: [], context: {} })) as Record<
    string,
    unknown
  >;
}

export default defineSuite({
  package: "@task-context/media-tools",
  runtimes: ["node24", "bun", "deno", "workerd"],
  cases: [
    {
      name: "Tool receives task context: read_media sends the injected prompt beside the image",
      async run() {
        const understanding = languageModel();
        const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT, "home.jpg": PNG });
        const tools = createMediaTools({ workspace, models: { understanding } });
        const result = await call(tools.read_media as Tool, {
          path: "home.jpg",
          prompt: "Header?",
        });
        assert.deepEqual(result, {
          success: true,
          tool: "understand_image",
          path: "home.jpg",
          mediaType: "image/png",
          size: PNG.length,
          text: "LUMEN.",
        });
        const message = understanding.doGenerateCalls[0]?.prompt[0];
        assert.ok(message?.role === "user" && message.content[0]?.type === "text");
        assert.equal(message.content[0].text, injected("Header?"));
        assert.equal(message.content[1]?.type, "file");
      },
    },
    {
      name: "generate_media writes the image into the workspace",
      async run() {
        const { model, prompts } = imageModel();
        const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT });
        const tools = createMediaTools({ workspace, models: { image: model } });
        const result = await call(tools.generate_media as Tool, { type: "image", prompt: "Logo." });
        assert.equal(result.success, true);
        assert.deepEqual(prompts, [injected("Logo.")]);
        const written = await workspace.readFile(String(result.path));
        assert.deepEqual(written.bytes, PNG);
      },
    },
    {
      name: "Tool fails without CONTEXT.md",
      async run() {
        const { model, prompts } = imageModel();
        const tools = createMediaTools({
          workspace: memoryWorkspace(),
          models: { image: model },
        });
        assert.deepEqual(await call(tools.generate_image as Tool, { prompt: "Logo." }), {
          success: false,
          error: `${CONTEXT_MISSING_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`,
          code: "TASK_CONTEXT_MISSING",
        });
        assert.equal(prompts.length, 0);
      },
    },
    {
      name: "times out on the runtime's clock",
      async run() {
        const understanding = new MockLanguageModelV4({ doGenerate: () => new Promise(() => {}) });
        const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT, "a.png": PNG });
        const tools = createMediaTools({ workspace, models: { understanding }, timeoutMs: 20 });
        const result = await call(tools.understand_image as Tool, { path: "a.png", prompt: "?" });
        assert.equal(result.code, "TIMEOUT");
      },
    },
    {
      name: "taskContextMiddleware injects the context into a wrapped model's call",
      async run() {
        const model = languageModel();
        const wrapped = wrapLanguageModel({
          model,
          middleware: taskContextMiddleware({
            workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }),
          }),
        });
        await generateText({ model: wrapped, prompt: "Headlines?" });
        const prompt = model.doGenerateCalls[0]?.prompt ?? [];
        assert.equal(prompt.length, 1);
        const message = prompt[0];
        assert.ok(message?.role === "user" && message.content[0]?.type === "text");
        assert.equal(message.content[0].text, injected("Headlines?"));
      },
    },
  ],
});
