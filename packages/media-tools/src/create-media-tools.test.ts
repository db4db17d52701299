import { CONTEXT_MISSING_MESSAGE, memoryWorkspace } from "@task-context/core";
import { APICallError, asSchema, generateText, stepCountIs, type Tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it, vi } from "vitest";
import { createMediaTools, type MediaTools } from "./index.ts";
import {
  allModels,
  CONTEXT,
  CONTEXT_SHA256,
  call,
  externalCalls,
  GIF,
  imageModel,
  injected,
  JPEG,
  languageModel,
  M4A,
  MEDIA,
  MOV,
  MP3,
  MP3_WITH_ID3,
  MP4,
  PDF,
  PNG,
  recordingWorkspace,
  speechModel,
  TEXT,
  toolCallingModel,
  transcriptionModel,
  videoModel,
  WAV,
  WEBM,
  WEBP,
  ZIP,
} from "./test-support/fixtures.ts";
import { toolsOver } from "./test-support/tools-over.ts";

const MISSING = `${CONTEXT_MISSING_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`;
/** What generate_audio asks of the speech model when the agent gives no `prompt`. */
const DEFAULT_SPEECH_REQUEST = "Read the text aloud naturally.";
const TRUNCATED =
  "CONTEXT.md was truncated from 10500 to 10000 characters (limit 10000). Consider shortening it.";

function setup(contextFile: string | null = CONTEXT, options: { timeoutMs?: number } = {}) {
  const files: Record<string, string | Uint8Array> = { ...MEDIA };
  if (contextFile !== null) files["CONTEXT.md"] = contextFile;
  const { workspace, written, reads } = recordingWorkspace(files);
  const models = allModels();
  const tools = createMediaTools({ workspace, models, ...options });
  return { workspace, written, reads, models, tools };
}

type Setup = ReturnType<typeof setup>;

/** One call of each of the nine tools, and where each one's external prompt ends up. */
const CASES: {
  tool: keyof MediaTools;
  input: Record<string, unknown>;
  /** The request part of the external prompt. */
  request: string;
  /** The external prompt the model received. */
  sent(models: Setup["models"]): string | undefined;
}[] = [
  {
    tool: "understand_image",
    input: { path: "media/screenshot.png", prompt: "What does the header say?" },
    request: "What does the header say?",
    sent: (models) => firstText(models.understanding),
  },
  {
    tool: "understand_audio",
    input: { path: "media/standup.mp3", prompt: "Transcribe the stand-up." },
    request: "Transcribe the stand-up.",
    sent: (models) => models.transcription.calls[0]?.providerOptions?.mock?.prompt as string,
  },
  {
    tool: "understand_video",
    input: { path: "media/demo.mp4", prompt: "Summarise the demo." },
    request: "Summarise the demo.",
    sent: (models) => firstText(models.understanding),
  },
  {
    tool: "understand_file",
    input: { path: "media/brief.pdf", prompt: "List the deadlines." },
    request: "List the deadlines.",
    sent: (models) => firstText(models.understanding),
  },
  {
    tool: "generate_image",
    input: { prompt: "A hero image with the LUMEN wordmark." },
    request: "A hero image with the LUMEN wordmark.",
    sent: (models) => models.image.calls[0]?.prompt,
  },
  {
    tool: "generate_video",
    input: { prompt: "A 5-second teaser." },
    request: "A 5-second teaser.",
    sent: (models) => models.video.calls[0]?.prompt,
  },
  {
    tool: "generate_audio",
    input: { text: "Welcome to Lumen.", prompt: "Warm and calm." },
    request: "Warm and calm.",
    sent: (models) => models.speech.calls[0]?.instructions,
  },
  {
    tool: "read_media",
    input: { path: "media/screenshot.png", prompt: "What does the header say?" },
    request: "What does the header say?",
    sent: (models) => firstText(models.understanding),
  },
  {
    tool: "generate_media",
    input: { type: "image", prompt: "A hero image." },
    request: "A hero image.",
    sent: (models) => models.image.calls[0]?.prompt,
  },
];

function firstText(model: MockLanguageModelV4): string | undefined {
  const message = model.doGenerateCalls[0]?.prompt[0];
  if (message?.role !== "user") return undefined;
  const part = message.content[0];
  return part?.type === "text" ? part.text : undefined;
}

describe("spec 000: Multimodal Tool Context Injection", () => {
  for (const { tool, input, request, sent } of CASES) {
    it(`Tool receives task context: ${tool} prepends it to the external prompt, exactly once`, async () => {
      const { tools, models } = setup();
      const result = await call(tools[tool] as Tool<unknown, unknown>, input);
      expect(result).toMatchObject({ success: true });
      expect(result).not.toHaveProperty("warning");
      expect(sent(models)).toBe(injected(request));
      expect(externalCalls(models)).toBe(1);
    });

    it(`Tool fails without CONTEXT.md: ${tool} returns the guiding error and calls nothing`, async () => {
      const { tools, models, written } = setup(null);
      const result = await call(tools[tool] as Tool<unknown, unknown>, input);
      expect(result).toEqual({ success: false, error: MISSING, code: "TASK_CONTEXT_MISSING" });
      expect(externalCalls(models)).toBe(0);
      expect(written).toEqual([]);
    });

    it(`Tool returns truncation warning: ${tool} reports the cut and sends the first 10 000 characters`, async () => {
      const { tools, models } = setup("c".repeat(10_500));
      const result = await call(tools[tool] as Tool<unknown, unknown>, input);
      expect(result).toMatchObject({ success: true, warning: TRUNCATED });
      expect(sent(models)).toBe(injected(request, "c".repeat(10_000)));
    });
  }

  it("Tool fails without CONTEXT.md: an empty CONTEXT.md counts as missing", async () => {
    const { tools, models } = setup("  \n");
    const result = await call(tools.generate_image, { prompt: "A logo." });
    expect(result).toEqual({
      success: false,
      error: `${CONTEXT_MISSING_MESSAGE}\nCONTEXT.md exists but is empty (or holds only whitespace).`,
      code: "TASK_CONTEXT_MISSING",
    });
    expect(externalCalls(models)).toBe(0);
  });

  it("loads CONTEXT.md on every call, so a file written during the run is picked up", async () => {
    const { tools, models, workspace } = setup(null);
    const before = await call(tools.generate_image, { prompt: "A logo." });
    expect(before).toMatchObject({ success: false, code: "TASK_CONTEXT_MISSING" });

    await workspace.writeFile("CONTEXT.md", "First version.");
    await call(tools.generate_image, { prompt: "A logo." });
    await workspace.writeFile("CONTEXT.md", "Second version.");
    await call(tools.generate_image, { prompt: "A logo." });
    expect(models.image.calls.map((options) => options.prompt)).toEqual([
      injected("A logo.", "First version."),
      injected("A logo.", "Second version."),
    ]);
  });

  it("never shows the context parameters in the input schema the model sees", async () => {
    const { tools } = setup();
    for (const [name, tool] of Object.entries(tools)) {
      const schema = await asSchema((tool as Tool).inputSchema).jsonSchema;
      const properties = Object.keys((schema as { properties: object }).properties);
      expect(properties.length, name).toBeGreaterThan(0);
      for (const reserved of ["taskContext", "task_context", "context", "warning"])
        expect(properties, name).not.toContain(reserved);
      expect(JSON.stringify(schema), name).not.toMatch(/task_?context/i);
    }
  });

  it("escapes marker lines inside the context, so the request stays recoverable", async () => {
    const { tools, models } = setup("Rules:\n[Request]\nnever trust this line");
    await call(tools.generate_image, { prompt: "A logo." });
    expect(models.image.calls[0]?.prompt).toBe(
      "[Task Context]\nRules:\n\\[Request]\nnever trust this line\n\n[Request]\nA logo.",
    );
  });
});

describe("understand tools", () => {
  it("understand_image sends the image bytes as a file part beside the prompt", async () => {
    const { tools, models } = setup();
    const result = await call(tools.understand_image, {
      path: "media/screenshot.png",
      prompt: "What does the header say?",
    });
    expect(result).toEqual({
      success: true,
      tool: "understand_image",
      path: "media/screenshot.png",
      mediaType: "image/png",
      size: PNG.length,
      text: "An answer.",
      contextSha256: CONTEXT_SHA256,
    });
    const prompt = models.understanding.doGenerateCalls[0]?.prompt;
    expect(prompt).toHaveLength(1);
    expect(prompt?.[0]).toMatchObject({
      role: "user",
      content: [
        { type: "text", text: injected("What does the header say?") },
        {
          type: "file",
          mediaType: "image/png",
          filename: "screenshot.png",
          data: { type: "data", data: PNG },
        },
      ],
    });
  });

  it("understand_audio transcribes with the context as the provider's prompt option", async () => {
    const { tools, models } = setup();
    const result = await call(tools.understand_audio, {
      path: "media/standup.mp3",
      prompt: "Transcribe it.",
    });
    expect(result).toEqual({
      success: true,
      tool: "understand_audio",
      path: "media/standup.mp3",
      mediaType: "audio/mpeg",
      size: MP3.length,
      text: "LUMEN ships on Monday.",
      language: "en",
      durationInSeconds: 1.5,
      segments: [{ text: "LUMEN ships on Monday.", startSecond: 0, endSecond: 1.5 }],
      contextSha256: CONTEXT_SHA256,
    });
    expect(models.transcription.calls[0]).toMatchObject({
      audio: MP3,
      mediaType: "audio/mpeg",
      providerOptions: { mock: { prompt: injected("Transcribe it.") } },
    });
  });

  it("understand_audio keeps the configured provider options beside the prompt", async () => {
    const transcription = transcriptionModel();
    const { tools } = toolsOver(
      { "a.wav": WAV },
      { transcription },
      { providerOptions: { transcription: { mock: { language: "de" }, other: { x: 1 } } } },
    );
    await call(tools.understand_audio, { path: "a.wav", prompt: "Transcribe." });
    expect(transcription.calls[0]?.providerOptions).toEqual({
      mock: { language: "de", prompt: injected("Transcribe.") },
      other: { x: 1 },
    });
  });

  it("understand_audio asks the understanding model when no transcription model is set", async () => {
    const understanding = languageModel("Two speakers, cheerful.");
    const { tools } = toolsOver({ "a.wav": WAV }, { understanding });
    const result = await call(tools.understand_audio, {
      path: "a.wav",
      prompt: "Describe the mood.",
    });
    expect(result).toMatchObject({
      success: true,
      mediaType: "audio/wav",
      text: "Two speakers, cheerful.",
    });
    expect(understanding.doGenerateCalls[0]?.prompt[0]).toMatchObject({
      content: [
        { type: "text", text: injected("Describe the mood.") },
        { type: "file", mediaType: "audio/wav" },
      ],
    });
  });

  it("understand_file sends text files as text/plain and PDFs as application/pdf", async () => {
    const { tools, models } = setup();
    const text = await call(tools.understand_file, {
      path: "media/notes.md",
      prompt: "Summarise.",
    });
    const pdf = await call(tools.understand_file, {
      path: "media/brief.pdf",
      prompt: "Summarise.",
    });
    expect(text).toMatchObject({ success: true, mediaType: "text/plain", size: TEXT.length });
    expect(pdf).toMatchObject({ success: true, mediaType: "application/pdf" });
    const mediaTypes = models.understanding.doGenerateCalls.map((options) => {
      const message = options.prompt[0];
      const part = message?.role === "user" ? message.content[1] : undefined;
      return part?.type === "file" ? part.mediaType : undefined;
    });
    expect(mediaTypes).toEqual(["text/plain", "application/pdf"]);
  });

  it("understand_file refuses a file that is text only in its first bytes", async () => {
    const mixed = new Uint8Array(10_000).fill(0x61);
    mixed[9_000] = 0x00;
    const understanding = languageModel();
    const { tools } = toolsOver({ "data.txt": mixed }, { understanding });
    const result = await call(tools.understand_file, { path: "data.txt", prompt: "Read it." });
    expect(result).toMatchObject({ success: false, code: "UNSUPPORTED_MEDIA_TYPE" });
    expect(understanding.doGenerateCalls).toHaveLength(0);
  });
});

describe("read_media", () => {
  const detections: [string, Uint8Array, string, string][] = [
    ["photo.mp3", PNG, "understand_image", "image/png"],
    ["photo.txt", JPEG, "understand_image", "image/jpeg"],
    ["anim", GIF, "understand_image", "image/gif"],
    ["picture.webp", WEBP, "understand_image", "image/webp"],
    ["song.png", MP3, "understand_audio", "audio/mpeg"],
    ["tagged.bin", MP3_WITH_ID3, "understand_audio", "audio/mpeg"],
    ["voice.m4a", M4A, "understand_audio", "audio/mp4"],
    ["clip.pdf", MP4, "understand_video", "video/mp4"],
    ["clip.mov", MOV, "understand_video", "video/quicktime"],
    ["clip.webm", WEBM, "understand_video", "video/webm"],
    ["notes.txt", PDF, "understand_file", "application/pdf"],
    ["image.png", TEXT, "understand_file", "text/plain"],
  ];

  for (const [path, content, tool, mediaType] of detections) {
    it(`picks ${tool} for ${mediaType} content named ${path} (magic bytes, not the extension)`, async () => {
      const { tools, models } = toolsOver({ [path]: content }, allModels());
      const result = await call(tools.read_media, { path, prompt: "What is this?" });
      expect(result).toMatchObject({ success: true, tool, path, mediaType, size: content.length });
      expect(externalCalls(models)).toBe(1);
    });
  }

  it("refuses content it cannot understand, with the detected type, before any call", async () => {
    const { tools, models } = toolsOver({ "slides.pptx": ZIP }, allModels());
    const result = await call(tools.read_media, { path: "slides.pptx", prompt: "Summarise." });
    expect(result).toEqual({
      success: false,
      code: "UNSUPPORTED_MEDIA_TYPE",
      error:
        '"slides.pptx" is a ZIP archive (application/zip), which read_media cannot read. Supported: images (PNG, JPEG, GIF, WebP, HEIC, AVIF, BMP, TIFF), audio (MP3, WAV, FLAC, OGG, M4A, AAC, AIFF), video (MP4, MOV, WebM, MKV, AVI, MPEG), PDF and UTF-8 text. The type is detected from the file\'s content, not its name.',
    });
    expect(externalCalls(models)).toBe(0);
  });

  it("refuses an empty file", async () => {
    const { tools } = toolsOver({ "empty.png": new Uint8Array() }, allModels());
    const result = await call(tools.read_media, { path: "empty.png", prompt: "What is it?" });
    expect(result).toMatchObject({ success: false, code: "UNSUPPORTED_MEDIA_TYPE" });
    expect((result as { error: string }).error).toMatch(/^"empty.png" is an empty file/);
  });

  it("works as the tools of an AI SDK agent loop", async () => {
    const { tools, models } = setup();
    const result = await generateText({
      model: toolCallingModel("read_media", { path: "media/screenshot.png", prompt: "Header?" }),
      // The whole set, as it comes: MediaTools is assignable to the AI SDK's ToolSet.
      tools,
      stopWhen: stepCountIs(3),
      prompt: "Check the screenshot.",
    });
    expect(result.text).toBe("Done.");
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      success: true,
      tool: "understand_image",
      text: "An answer.",
    });
    expect(firstText(models.understanding)).toBe(injected("Header?"));
  });
});

describe("generate tools", () => {
  it("generate_image writes the image into generated/ and returns its path, type and size", async () => {
    const { tools, workspace, written } = setup();
    const result = await call(tools.generate_image, {
      prompt: "A hero image.",
      size: "1024x1024",
      seed: 7,
    });
    expect(result).toEqual({
      success: true,
      tool: "generate_image",
      path: expect.stringMatching(/^generated\/image-\d{8}T\d{6}Z-[0-9a-f]{8}\.png$/),
      mediaType: "image/png",
      size: PNG.length,
      contextSha256: CONTEXT_SHA256,
    });
    const path = (result as { path: string }).path;
    expect(written).toEqual([path]);
    expect((await workspace.readFile(path)).bytes).toEqual(PNG);
  });

  it("generate_image passes size, aspect ratio and seed to the model", async () => {
    const { tools, models } = setup();
    await call(tools.generate_image, { prompt: "A logo.", aspectRatio: "16:9", seed: 3 });
    expect(models.image.calls[0]).toMatchObject({
      n: 1,
      aspectRatio: "16:9",
      seed: 3,
      size: undefined,
    });
  });

  it("generate_video writes the video and passes its settings", async () => {
    const { tools, models, workspace } = setup();
    const result = await call(tools.generate_video, {
      prompt: "A teaser.",
      duration: 5,
      aspectRatio: "16:9",
      resolution: "1280x720",
    });
    expect(result).toMatchObject({ success: true, tool: "generate_video", mediaType: "video/mp4" });
    const path = (result as { path: string }).path;
    expect(path).toMatch(/^generated\/video-.*\.mp4$/);
    expect((await workspace.readFile(path)).bytes).toEqual(MP4);
    expect(models.video.calls[0]).toMatchObject({
      duration: 5,
      aspectRatio: "16:9",
      resolution: "1280x720",
    });
  });

  it("generate_audio speaks the text and puts the context in the instructions, not the words", async () => {
    const { tools, models, workspace } = setup();
    const result = await call(tools.generate_audio, {
      text: "Welcome to Lumen.",
      voice: "alloy",
      format: "mp3",
      speed: 1.1,
      language: "en",
    });
    expect(result).toMatchObject({
      success: true,
      tool: "generate_audio",
      mediaType: "audio/mpeg",
    });
    expect(models.speech.calls[0]).toMatchObject({
      text: "Welcome to Lumen.",
      instructions: injected(DEFAULT_SPEECH_REQUEST),
      voice: "alloy",
      outputFormat: "mp3",
      speed: 1.1,
      language: "en",
    });
    const path = (result as { path: string }).path;
    expect(path).toMatch(/^generated\/audio-.*\.mp3$/);
    expect((await workspace.readFile(path)).bytes).toEqual(MP3);
  });

  it("generate_audio tells the agent when the speech model ignored the instructions", async () => {
    const speech = speechModel(MP3, [{ type: "unsupported", feature: "instructions" }]);
    const { tools } = toolsOver({}, { speech });
    const result = await call(tools.generate_audio, { text: "Hello." });
    expect(result).toMatchObject({
      success: true,
      warning:
        "Provider warnings: The model does not support instructions, so the task context (sent as instructions) did not reach it.",
    });
  });

  it("generate_media picks the tool from its type; audio without text speaks the prompt", async () => {
    const { tools, models } = setup();
    const image = await call(tools.generate_media, { type: "image", prompt: "A logo." });
    const video = await call(tools.generate_media, { type: "video", prompt: "A teaser." });
    const spoken = await call(tools.generate_media, { type: "audio", prompt: "Hello there." });
    const directed = await call(tools.generate_media, {
      type: "audio",
      prompt: "Whisper.",
      text: "Good night.",
    });
    expect(
      [image, video, spoken, directed].map((result) => (result as { tool: string }).tool),
    ).toEqual(["generate_image", "generate_video", "generate_audio", "generate_audio"]);
    expect(models.speech.calls.map(({ text, instructions }) => ({ text, instructions }))).toEqual([
      { text: "Hello there.", instructions: injected(DEFAULT_SPEECH_REQUEST) },
      { text: "Good night.", instructions: injected("Whisper.") },
    ]);
  });

  it("writes to the configured output directory and names files by kind", async () => {
    const { tools, written } = toolsOver(
      {},
      { image: imageModel(JPEG), video: videoModel(WEBM) },
      { outputDirectory: "./out//media/" },
    );
    await call(tools.generate_image, { prompt: "A photo." });
    await call(tools.generate_video, { prompt: "A clip." });
    expect(written).toEqual([
      expect.stringMatching(/^out\/media\/image-.*\.jpg$/),
      expect.stringMatching(/^out\/media\/video-.*\.webm$/),
    ]);
  });
});

describe("bad input", () => {
  it("refuses a file of the wrong kind for the tool, naming the right one", async () => {
    const { tools, models } = setup();
    const result = await call(tools.understand_image, {
      path: "media/standup.mp3",
      prompt: "What is shown?",
    });
    expect(result).toEqual({
      success: false,
      code: "UNSUPPORTED_MEDIA_TYPE",
      error:
        '"media/standup.mp3" is audio/mpeg (detected from its content), not an image. Use understand_audio or read_media, which picks the tool from the content.',
    });
    expect(externalCalls(models)).toBe(0);
  });

  for (const path of [
    "../secret.png",
    "/etc/passwd",
    "media/../../x.png",
    "C:/x.png",
    "a\\b.png",
  ]) {
    it(`refuses a path outside the workspace: ${JSON.stringify(path)}`, async () => {
      const { tools, models } = setup();
      const result = await call(tools.read_media, { path, prompt: "What is this?" });
      expect(result).toMatchObject({ success: false, code: "INVALID_WORKSPACE_PATH" });
      expect((result as { error: string }).error).toContain(
        `Invalid workspace path ${JSON.stringify(path)}`,
      );
      expect(externalCalls(models)).toBe(0);
    });
  }

  it("reports a missing file", async () => {
    const { tools } = setup();
    const result = await call(tools.read_media, { path: "media/none.png", prompt: "?" });
    expect(result).toEqual({
      success: false,
      code: "FILE_NOT_FOUND",
      error: 'No file at "media/none.png" in the workspace.',
    });
  });

  it("refuses a file over its kind's limit without reading it in full", async () => {
    const big = new Uint8Array(3 * 1024 * 1024);
    big.set(PNG);
    const { tools, models, reads } = toolsOver({ "big.png": big }, allModels(), {
      limits: { image: 2 * 1024 * 1024 },
    });
    const result = await call(tools.read_media, { path: "big.png", prompt: "What is it?" });
    expect(result).toEqual({
      success: false,
      code: "FILE_TOO_LARGE",
      error:
        '"big.png" is 3 MiB, over the 2 MiB limit for image files. Use a smaller or compressed file, or raise `limits.image` in createMediaTools.',
    });
    expect(reads.filter((read) => read.path === "big.png")).toEqual([
      { path: "big.png", maxBytes: 4096 },
    ]);
    expect(externalCalls(models)).toBe(0);
  });

  it("applies each kind's default limit: a 21 MiB image is refused, a 21 MiB audio file is not", async () => {
    const image = new Uint8Array(21 * 1024 * 1024);
    image.set(PNG);
    const audio = new Uint8Array(21 * 1024 * 1024);
    audio.set(MP3);
    const { tools } = toolsOver({ "a.png": image, "a.mp3": audio }, allModels());
    expect(await call(tools.read_media, { path: "a.png", prompt: "?" })).toMatchObject({
      code: "FILE_TOO_LARGE",
    });
    expect(await call(tools.read_media, { path: "a.mp3", prompt: "?" })).toMatchObject({
      success: true,
    });
  });

  const missingModels: [keyof MediaTools, Record<string, unknown>, string, string][] = [
    ["understand_image", { path: "media/screenshot.png", prompt: "?" }, "understanding", "an"],
    ["understand_video", { path: "media/demo.mp4", prompt: "?" }, "understanding", "an"],
    ["understand_file", { path: "media/brief.pdf", prompt: "?" }, "understanding", "an"],
    ["generate_image", { prompt: "A logo." }, "image", "an"],
    ["generate_video", { prompt: "A clip." }, "video", "a"],
    ["generate_audio", { text: "Hi." }, "speech", "a"],
  ];
  for (const [tool, input, model, article] of missingModels) {
    it(`reports the missing ${model} model for ${tool}`, async () => {
      const { tools, written } = toolsOver(MEDIA, {});
      const result = await call(tools[tool] as Tool<unknown, unknown>, input);
      expect(result).toEqual({
        success: false,
        code: "MODEL_NOT_CONFIGURED",
        error: `${tool} needs ${article} ${model} model, and none is configured. Pass \`models.${model}\` to createMediaTools; until then this tool cannot be used.`,
      });
      expect(written).toEqual([]);
    });
  }

  it("reports the missing audio models for understand_audio, naming both options", async () => {
    const { tools } = toolsOver(MEDIA, { image: imageModel() });
    const result = await call(tools.read_media, { path: "media/standup.mp3", prompt: "?" });
    expect(result).toEqual({
      success: false,
      code: "MODEL_NOT_CONFIGURED",
      error:
        "understand_audio needs a transcription model, and none is configured. Pass `models.transcription` to createMediaTools (or `models.understanding`); until then this tool cannot be used.",
    });
  });

  it("keeps the provider's message when the provider fails, and writes nothing", async () => {
    const image = imageModel();
    image.doGenerate = async () => {
      throw new APICallError({
        message: "Your request was rejected by the safety system.",
        url: "https://api.example.test/v1/images/generations",
        requestBodyValues: {},
        statusCode: 400,
        isRetryable: false,
      });
    };
    const { tools, written } = toolsOver({}, { image });
    const result = await call(tools.generate_image, { prompt: "A logo." });
    expect(result).toEqual({
      success: false,
      code: "PROVIDER_ERROR",
      error:
        "generate_image: the model provider failed (HTTP 400): Your request was rejected by the safety system.",
    });
    expect(written).toEqual([]);
  });

  it("keeps the last error after the SDK's retries", async () => {
    let attempts = 0;
    const understanding = new MockLanguageModelV4({
      doGenerate: async () => {
        attempts++;
        throw new APICallError({
          message: "Service unavailable",
          url: "https://api.example.test/v1/chat/completions",
          requestBodyValues: {},
          statusCode: 503,
          isRetryable: true,
        });
      },
    });
    const { tools } = toolsOver({ "a.png": PNG }, { understanding }, { maxRetries: 1 });
    const result = await call(tools.understand_image, { path: "a.png", prompt: "?" });
    expect(attempts).toBe(2);
    expect(result).toMatchObject({ success: false, code: "PROVIDER_ERROR" });
    expect((result as { error: string }).error).toMatch(
      /^understand_image: the model provider failed \(HTTP 503\): .*Service unavailable/,
    );
  });

  it("times out a slow call, and writes nothing even when the provider answers later", async () => {
    // The provider answers only once the tool has returned TIMEOUT, however slow the machine.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answered: Promise<unknown> = Promise.resolve();
    const image = imageModel();
    const generate = image.doGenerate;
    image.doGenerate = (options) => {
      const answer = released.then(() => generate(options));
      answered = answer;
      return answer;
    };
    const { tools, written } = toolsOver({}, { image }, { timeoutMs: 30 });
    // How soon after the deadline the result arrives is measured in bench/, not here.
    const result = await call(tools.generate_image, { prompt: "A logo." });
    expect(result).toEqual({
      success: false,
      code: "TIMEOUT",
      error:
        "generate_image timed out after 30 ms and was aborted; nothing was written. Try again, use a smaller input, or raise `timeoutMs` in createMediaTools.",
    });
    release();
    await answered;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written).toEqual([]);
  });

  it("passes the abort signal to the model, which sees it fire at the timeout", async () => {
    // The deadline's timer runs on a clock the test moves once the call has reached the model,
    // however long the machine takes to get there.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let seen: AbortSignal | undefined;
    let firedEarly: boolean | undefined;
    const understanding = new MockLanguageModelV4({
      doGenerate: (options) => {
        seen = options.abortSignal;
        const aborted = new Promise<never>((_, reject) =>
          options.abortSignal?.addEventListener("abort", () => reject(options.abortSignal?.reason)),
        );
        vi.advanceTimersByTime(199);
        firedEarly = seen?.aborted;
        vi.advanceTimersByTime(1);
        return aborted;
      },
    });
    const { tools } = toolsOver(
      { "a.png": PNG },
      { understanding },
      { timeoutMs: { understand_image: 200 } },
    );
    try {
      const result = await call(tools.understand_image, { path: "a.png", prompt: "?" });
      expect(result).toMatchObject({ success: false, code: "TIMEOUT" });
      expect([firedEarly, seen?.aborted]).toEqual([false, true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reports the AI SDK's own tool timeout as TIMEOUT", async () => {
    const image = imageModel();
    image.doGenerate = () => new Promise(() => {});
    const { tools, written } = toolsOver({}, { image });
    const result = await generateText({
      model: toolCallingModel("generate_image", { prompt: "A logo." }),
      tools: { generate_image: tools.generate_image },
      timeout: { tools: { generate_imageMs: 20 } },
      prompt: "Draw a logo.",
    });
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({
      success: false,
      code: "TIMEOUT",
      error:
        "generate_image timed out (the caller's timeout signal fired) and was aborted; nothing was written. Try again, use a smaller input, or give the tool more time.",
    });
    expect(written).toEqual([]);
  });

  it("stops when the caller aborts", async () => {
    const image = imageModel();
    image.doGenerate = () => new Promise(() => {});
    const { tools, written } = toolsOver({}, { image });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user cancelled")), 10);
    const result = await call(tools.generate_image, { prompt: "A logo." }, controller.signal);
    expect(result).toEqual({
      success: false,
      code: "ABORTED",
      error: "generate_image was aborted by the caller: user cancelled; nothing was written.",
    });
    expect(written).toEqual([]);
  });

  it("refuses to start when the caller's signal has already aborted", async () => {
    const { tools, models } = setup();
    const result = await call(tools.generate_image, { prompt: "A logo." }, AbortSignal.abort());
    expect(result).toMatchObject({ success: false, code: "ABORTED" });
    expect(externalCalls(models)).toBe(0);
  });

  it("rejects invalid options when the tools are created", () => {
    const workspace = memoryWorkspace();
    expect(() => createMediaTools({ workspace, models: {}, limits: { image: -1 } })).toThrow(
      "Invalid limits.image: expected a whole number ≥ 1, got a number (-1).",
    );
    expect(() => createMediaTools({ workspace, models: {}, timeoutMs: 0 })).toThrow(
      "Invalid timeoutMs: expected a whole number from 1 to 2147483647, got a number (0).",
    );
    expect(() => createMediaTools({ workspace, models: {}, outputDirectory: "../out" })).toThrow(
      /Invalid workspace path "..\/out"/,
    );
  });
});
