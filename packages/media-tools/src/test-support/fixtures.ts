// Test fixtures: the smallest byte sequences each detector recognises, and AI SDK test models
// that record what they were asked. Shared by the unit, over-the-wire and Workers tests.
import { memoryWorkspace, type Workspace } from "@task-context/core";
import type { experimental_generateVideo, ImageModel, Tool, TranscriptionModel } from "ai";
import {
  MockImageModelV4,
  MockLanguageModelV4,
  MockSpeechModelV4,
  MockTranscriptionModelV4,
  MockVideoModelV4,
} from "ai/test";

// The SDK's mock classes declare optional members as `T | undefined`, which our
// exactOptionalPropertyTypes setting does not accept where the model interfaces declare `T?`.
type ImageModelV4 = Extract<ImageModel, { specificationVersion: "v4" }>;
type TranscriptionModelV4 = Extract<TranscriptionModel, { specificationVersion: "v4" }>;
type VideoModelV4 = Extract<
  Parameters<typeof experimental_generateVideo>[0]["model"],
  { specificationVersion: "v4" }
>;

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(
    parts.flatMap((part) =>
      typeof part === "string" ? [...part].map((character) => character.charCodeAt(0)) : part,
    ),
  );

const padded = (head: Uint8Array, length = 64) => {
  const out = new Uint8Array(Math.max(length, head.length));
  out.set(head);
  return out;
};

/** A PNG signature and IHDR start: enough to be detected as image/png. */
export const PNG = padded(
  bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], "IHDR", [0, 0, 0, 1]),
);
export const JPEG = padded(bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], "JFIF", [0]));
export const GIF = padded(bytes("GIF89a", [1, 0, 1, 0]));
export const WEBP = padded(bytes("RIFF", [36, 0, 0, 0], "WEBPVP8 "));
/** An MPEG-1 Layer III frame header (128 kbit/s, 44.1 kHz). */
export const MP3 = padded(bytes([0xff, 0xfb, 0x90, 0x64]));
export const MP3_WITH_ID3 = padded(bytes("ID3", [4, 0, 0, 0, 0, 0, 0]));
export const WAV = padded(bytes("RIFF", [36, 0, 0, 0], "WAVEfmt "));
export const FLAC = padded(bytes("fLaC", [0, 0, 0, 34]));
export const OGG_OPUS = padded(bytes("OggS", [0, 2], new Array(22).fill(0), "OpusHead"));
export const M4A = padded(bytes([0, 0, 0, 0x20], "ftypM4A ", [0, 0, 0, 0]));
export const MP4 = padded(bytes([0, 0, 0, 0x20], "ftypisom", [0, 0, 2, 0], "isomiso2mp41"));
export const MOV = padded(bytes([0, 0, 0, 0x14], "ftypqt  ", [0, 0, 0, 0]));
export const WEBM = padded(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84], "webm"));
export const PDF = padded(bytes("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"));
export const TEXT = new TextEncoder().encode("# Launch notes\nLUMEN ships on Monday. Café ✓\n");
export const ZIP = padded(bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]));

/** One file of each kind the understand tools read, at the paths the tests ask for. */
export const MEDIA = {
  "media/screenshot.png": PNG,
  "media/standup.mp3": MP3,
  "media/demo.mp4": MP4,
  "media/brief.pdf": PDF,
  "media/notes.md": TEXT,
};

/** The context most tests write to CONTEXT.md. */
export const CONTEXT =
  "We are building Lumen, a note-taking app for researchers. LUMEN in images is the wordmark.";

/** The receipt of {@link CONTEXT}: the hex SHA-256 of its UTF-8 bytes, spelled out. */
export const CONTEXT_SHA256 = "117cf136ad1310899f541fa14d579a725907ee4f93f3a9a4ae680fefafcfa6d2";

/** `[Task Context]\n{context}\n\n[Request]\n{prompt}`, spelled out rather than computed. */
export const injected = (prompt: string, context = CONTEXT) =>
  `[Task Context]\n${context}\n\n[Request]\n${prompt}`;

const response = () => ({ timestamp: new Date(0), modelId: "mock", headers: {} });

/** A language model that answers `text` and records every call. */
export function languageModel(text = "An answer.") {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 2, text: 2, reasoning: 0 },
      },
      warnings: [],
    }),
  });
}

/** An image model that returns `image` and records its calls' options. */
export function imageModel(image: Uint8Array = PNG) {
  const calls: Parameters<MockImageModelV4["doGenerate"]>[0][] = [];
  const model = new MockImageModelV4({
    doGenerate: async (options) => {
      calls.push(options);
      return { images: [image], warnings: [], response: response() };
    },
  });
  return Object.assign(model as unknown as ImageModelV4, { calls });
}

/** A video model that returns `video` as binary data and records its calls' options. */
export function videoModel(video: Uint8Array = MP4) {
  const calls: Parameters<NonNullable<MockVideoModelV4["doGenerate"]>>[0][] = [];
  const model = new MockVideoModelV4({
    doGenerate: async (options) => {
      calls.push(options);
      return {
        videos: [{ type: "binary", data: video, mediaType: "video/mp4" }],
        warnings: [],
        response: response(),
      };
    },
  });
  return Object.assign(model as unknown as VideoModelV4, { calls });
}

/** A speech model that returns `audio` and records its calls' options. */
export function speechModel(
  audio: Uint8Array = MP3,
  warnings: Awaited<ReturnType<MockSpeechModelV4["doGenerate"]>>["warnings"] = [],
) {
  const calls: Parameters<MockSpeechModelV4["doGenerate"]>[0][] = [];
  const model = new MockSpeechModelV4({
    provider: "mock.speech",
    doGenerate: async (options) => {
      calls.push(options);
      return { audio, warnings, response: response() };
    },
  });
  return Object.assign(model, { calls });
}

/** A transcription model (provider "mock") that returns `text` and records its calls' options. */
export function transcriptionModel(text = "LUMEN ships on Monday.") {
  const calls: Parameters<MockTranscriptionModelV4["doGenerate"]>[0][] = [];
  const model = new MockTranscriptionModelV4({
    provider: "mock.transcription",
    doGenerate: async (options) => {
      calls.push(options);
      return {
        text,
        segments: [{ text, startSecond: 0, endSecond: 1.5 }],
        language: "en",
        durationInSeconds: 1.5,
        warnings: [],
        response: response(),
      };
    },
  });
  return Object.assign(model as unknown as TranscriptionModelV4, { calls });
}

/**
 * A language model that acts as an agent: on its first step it calls `toolName` with `input`,
 * on the next it answers "Done.".
 */
export function toolCallingModel(toolName: string, input: object) {
  let step = 0;
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  return new MockLanguageModelV4({
    doGenerate: async () => {
      step++;
      if (step === 1) {
        return {
          content: [
            { type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: "text", text: "Done." }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
  });
}

/** All five models, each recording its calls. */
export function allModels() {
  return {
    understanding: languageModel(),
    image: imageModel(),
    video: videoModel(),
    speech: speechModel(),
    transcription: transcriptionModel(),
  };
}

/** How many external calls the models made, together. */
export function externalCalls(models: ReturnType<typeof allModels>): number {
  return (
    models.understanding.doGenerateCalls.length +
    models.image.calls.length +
    models.video.calls.length +
    models.speech.calls.length +
    models.transcription.calls.length
  );
}

/** The options the AI SDK passes to a tool's execute, for calling tools directly in tests. */
export const toolCallOptions = (abortSignal?: AbortSignal) => ({
  toolCallId: "call-1",
  messages: [],
  context: {},
  ...(abortSignal === undefined ? {} : { abortSignal }),
});

/** Calls an AI SDK tool the way the SDK does (with its call options), and returns its result. */
export async function call<Input, Output>(
  tool: Tool<Input, Output>,
  input: Input,
  abortSignal?: AbortSignal,
): Promise<Output> {
  if (tool.execute === undefined) throw new Error("tool has no execute");
  return (await tool.execute(input, toolCallOptions(abortSignal))) as Output;
}

/** A memory workspace that also lists what was read and written, to check what was (not) done. */
export function recordingWorkspace(files: Record<string, string | Uint8Array>) {
  const inner = memoryWorkspace(files);
  const written: string[] = [];
  const reads: { path: string; maxBytes: number | undefined }[] = [];
  const workspace: Workspace = {
    description: inner.description,
    readFile: (path, options) => {
      reads.push({ path, maxBytes: options?.maxBytes });
      return inner.readFile(path, options);
    },
    writeFile: async (path, data) => {
      await inner.writeFile(path, data);
      written.push(path);
    },
  };
  return { workspace, written, reads };
}
