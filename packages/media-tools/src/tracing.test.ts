import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { OpenTelemetry } from "@ai-sdk/otel";
import { context, trace } from "@opentelemetry/api";
import { approximateTokenizer, CONTEXT_MISSING_MESSAGE, memoryWorkspace } from "@task-context/core";
import {
  deliveredContext as delivered,
  recordSpans,
  type SpanRecorder,
} from "@task-context/trace-kit";
import { generateText, registerTelemetry, streamText, wrapLanguageModel } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTracing } from "../examples/tracing-node.ts";
import { createMediaTools, type MediaTools, taskContextMiddleware } from "./index.ts";
import { allModels, CONTEXT, call, MP3, MP4, PDF, PNG } from "./test-support/fixtures.ts";

const MISSING = `${CONTEXT_MISSING_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`;
const FILES = {
  "media/screenshot.png": PNG,
  "media/standup.mp3": MP3,
  "media/demo.mp4": MP4,
  "media/brief.pdf": PDF,
};

/** One call of each of the nine tools. */
const CALLS: { tool: keyof MediaTools; input: Record<string, unknown> }[] = [
  { tool: "read_media", input: { path: "media/screenshot.png", prompt: "What is shown?" } },
  { tool: "generate_media", input: { type: "image", prompt: "A hero image." } },
  { tool: "understand_image", input: { path: "media/screenshot.png", prompt: "Header?" } },
  { tool: "understand_audio", input: { path: "media/standup.mp3", prompt: "Transcribe." } },
  { tool: "understand_video", input: { path: "media/demo.mp4", prompt: "Summarise." } },
  { tool: "understand_file", input: { path: "media/brief.pdf", prompt: "Summarise." } },
  { tool: "generate_image", input: { prompt: "A hero image." } },
  { tool: "generate_video", input: { prompt: "A teaser." } },
  { tool: "generate_audio", input: { text: "Lumen ships on Monday." } },
];

function tools(
  context: string | null,
  options: Parameters<typeof createMediaTools>[0]["context"] = {},
) {
  const files: Record<string, string | Uint8Array> = { ...FILES };
  if (context !== null) files["CONTEXT.md"] = context;
  return createMediaTools({
    workspace: memoryWorkspace(files),
    models: allModels(),
    context: options,
  });
}

/** The attributes every media tool's span has, for the tool `name`. */
const toolAttributes = (name: string) => ({
  "gen_ai.operation.name": "execute_tool",
  "gen_ai.tool.name": name,
  "gen_ai.tool.type": "function",
  "gen_ai.tool.call.id": "call-1",
  "task_context.recipient.kind": "media-tool",
  "task_context.recipient.id": name,
});

/** The one span of a delivery refused because CONTEXT.md is missing. */
const missingSpan = (name: string, kind: string, attributes: Record<string, unknown>) => ({
  name,
  scope: "@task-context/media-tools",
  kind,
  parent: null,
  status: { code: "error", message: MISSING },
  attributes: {
    ...attributes,
    "error.type": "TASK_CONTEXT_MISSING",
    "task_context.outcome": "error",
  },
});

describe("media tools with an OpenTelemetry SDK registered", () => {
  let recorder: SpanRecorder;
  beforeEach(() => {
    recorder = recordSpans();
  });
  afterEach(async () => {
    globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
    await recorder.stop();
  });

  it.each(CALLS)("records one execute_tool span for $tool", async ({ tool, input }) => {
    const result = await call(tools(CONTEXT)[tool] as MediaTools["read_media"], input as never);

    expect(result.success).toBe(true);
    expect(recorder.records()).toStrictEqual([
      {
        name: `execute_tool ${tool}`,
        scope: "@task-context/media-tools",
        kind: "internal",
        parent: null,
        status: { code: "unset" },
        attributes: {
          ...toolAttributes(tool),
          ...delivered(CONTEXT),
          "task_context.outcome": "success",
        },
        exceptions: [],
      },
    ]);
  });

  it("records the truncation, and the tokens counted with the configured tokenizer", async () => {
    const long = `${CONTEXT} ${"More detail. ".repeat(1000)}`.trim();
    const { read_media } = tools(long, { maxChars: 1000, tokenizer: approximateTokenizer });
    const result = await call(read_media, { path: "media/screenshot.png", prompt: "What?" });

    const content = long.slice(0, 1000).trim();
    expect(result).toMatchObject({ success: true, warning: expect.stringContaining("truncated") });
    expect(recorder.records()[0]?.attributes).toStrictEqual({
      ...toolAttributes("read_media"),
      ...delivered(content, long.length),
      "task_context.context.tokens": approximateTokenizer.count(content),
      "task_context.outcome": "success",
    });
  });

  it("records a call without CONTEXT.md as an error with the result's code, and no context", async () => {
    const result = await call(tools(null).read_media, {
      path: "media/screenshot.png",
      prompt: "?",
    });

    expect(result).toStrictEqual({ success: false, error: MISSING, code: "TASK_CONTEXT_MISSING" });
    expect(recorder.records()).toStrictEqual([
      {
        ...missingSpan("execute_tool read_media", "internal", toolAttributes("read_media")),
        exceptions: [],
      },
    ]);
  });

  it("records a provider failure after the context was delivered", async () => {
    const media = createMediaTools({
      workspace: memoryWorkspace({ ...FILES, "CONTEXT.md": CONTEXT }),
      models: { understanding: allModels().understanding },
    });
    const result = await call(media.generate_image, { prompt: "A hero image." });

    expect(result).toMatchObject({ success: false, code: "MODEL_NOT_CONFIGURED" });
    const [record] = recorder.records();
    expect(record?.status.code).toBe("error");
    expect(record?.attributes).toStrictEqual({
      ...toolAttributes("generate_image"),
      ...delivered(CONTEXT),
      "error.type": "MODEL_NOT_CONFIGURED",
      "task_context.outcome": "error",
    });
  });

  it("nests the AI SDK's telemetry spans under the media tool's span", async () => {
    registerTelemetry(new OpenTelemetry());
    await call(tools(CONTEXT).read_media, { path: "media/screenshot.png", prompt: "What?" });

    expect(
      recorder.records().map(({ name, scope, kind, parent }) => ({ name, scope, kind, parent })),
    ).toStrictEqual([
      { name: "chat mock-model-id", scope: "gen_ai", kind: "client", parent: "step 1" },
      {
        name: "step 1",
        scope: "gen_ai",
        kind: "internal",
        parent: "invoke_agent mock-model-id",
      },
      {
        name: "invoke_agent mock-model-id",
        scope: "gen_ai",
        kind: "internal",
        parent: "execute_tool read_media",
      },
      {
        name: "execute_tool read_media",
        scope: "@task-context/media-tools",
        kind: "internal",
        parent: null,
      },
    ]);
  });
});

describe("taskContextMiddleware with an OpenTelemetry SDK registered", () => {
  let recorder: SpanRecorder;
  beforeEach(() => {
    recorder = recordSpans();
  });
  afterEach(async () => {
    await recorder.stop();
  });

  const modelAttributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "mock-model-id",
    "gen_ai.provider.name": "mock-provider",
    "task_context.recipient.kind": "model",
    "task_context.recipient.id": "mock-model-id",
  };

  function wrapped(files: Record<string, string>) {
    return wrapLanguageModel({
      model: allModels().understanding,
      middleware: taskContextMiddleware({
        workspace: memoryWorkspace(files),
        tokenizer: approximateTokenizer,
      }),
    });
  }

  it("records one chat span per generate call, with the context delivered", async () => {
    await generateText({ model: wrapped({ "CONTEXT.md": CONTEXT }), prompt: "Hi." });

    expect(recorder.records()).toStrictEqual([
      {
        name: "chat mock-model-id",
        scope: "@task-context/media-tools",
        kind: "client",
        parent: null,
        status: { code: "unset" },
        attributes: {
          ...modelAttributes,
          ...delivered(CONTEXT),
          "task_context.context.tokens": approximateTokenizer.count(CONTEXT),
          "task_context.outcome": "success",
        },
        exceptions: [],
      },
    ]);
  });

  it("records one chat span per stream call", async () => {
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    };
    const streaming = new MockLanguageModelV4({
      doStream: async () => ({
        stream: convertArrayToReadableStream([
          { type: "stream-start", warnings: [] },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        ]),
      }),
    });
    const model = wrapLanguageModel({
      model: streaming,
      middleware: taskContextMiddleware({ workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }) }),
    });
    const stream = streamText({ model, prompt: "Hi." });
    expect(await stream.finishReason).toBe("stop");

    expect(recorder.records().map(({ name, attributes }) => ({ name, attributes }))).toStrictEqual([
      {
        name: "chat mock-model-id",
        attributes: {
          ...modelAttributes,
          ...delivered(CONTEXT),
          "task_context.outcome": "success",
        },
      },
    ]);
  });

  it("records a call refused for a missing CONTEXT.md as an error span", async () => {
    const error = await generateText({ model: wrapped({}), prompt: "Hi.", maxRetries: 0 }).catch(
      (thrown: unknown) => thrown,
    );

    expect(error).toMatchObject({ code: "TASK_CONTEXT_MISSING" });
    expect(recorder.records()).toStrictEqual([
      { ...missingSpan("chat mock-model-id", "client", modelAttributes), exceptions: [MISSING] },
    ]);
  });
});

describe("media tools without an OpenTelemetry SDK", () => {
  it("deliver as before and record nothing", async () => {
    const recorder = recordSpans();
    await recorder.stop();

    const result = await call(tools(CONTEXT).read_media, {
      path: "media/screenshot.png",
      prompt: "What?",
    });
    const { text } = await generateText({ model: wrapped(), prompt: "Hi." });

    expect(result).toMatchObject({ success: true, text: "An answer." });
    expect(text).toBe("An answer.");
    expect(recorder.finished()).toStrictEqual([]);
  });

  function wrapped() {
    return wrapLanguageModel({
      model: allModels().understanding,
      middleware: taskContextMiddleware({ workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }) }),
    });
  }
});

describe("examples/tracing-node.ts", () => {
  it("sends the media tool's span and the AI SDK's to an OTLP/HTTP receiver", async () => {
    const received: { path: string; type: string; body: string }[] = [];
    const receiver = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => {
        body += chunk;
      });
      request.on("end", () => {
        received.push({
          path: request.url ?? "",
          type: request.headers["content-type"] ?? "",
          body,
        });
        response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as AddressInfo;
    const provider = startTracing(`http://127.0.0.1:${port}/v1/traces`);
    try {
      await call(tools(CONTEXT).read_media, { path: "media/screenshot.png", prompt: "What?" });
      await provider.shutdown();
    } finally {
      trace.disable();
      context.disable();
      globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
      receiver.close();
    }

    expect(received.map(({ path, type }) => ({ path, type }))).toStrictEqual([
      { path: "/v1/traces", type: "application/json" },
    ]);
    const spans = JSON.parse(received[0]?.body ?? "{}").resourceSpans.flatMap(
      (resource: { scopeSpans: { spans: { name: string }[] }[] }) =>
        resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)),
    );
    expect(spans.sort()).toStrictEqual([
      "chat mock-model-id",
      "execute_tool read_media",
      "invoke_agent mock-model-id",
      "step 1",
    ]);
    expect(received[0]?.body).toContain('"key":"task_context.context.sha256"');
  });
});
