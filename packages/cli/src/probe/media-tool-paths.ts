import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ContextView } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import type { createMediaTools } from "@task-context/media-tools";
import { PROBE_REQUEST } from "./built-in-paths.ts";
import type { ProbeDelivery, ProbePath } from "./probe-paths.ts";

type MediaTools = ReturnType<typeof createMediaTools>;
type TestModels = typeof import("ai/test");

/** A target model a recording model poses as: `{ provider: "openai.image", modelId: "dall-e-2" }`. */
export interface PosedModel {
  provider: string;
  modelId: string;
}

/** The models the recording stand-ins pose as, per kind: the tools then fit the context to them. */
export interface PosedModels {
  understanding?: PosedModel;
  image?: PosedModel;
  video?: PosedModel;
  speech?: PosedModel;
  transcription?: PosedModel;
}

/** What {@link mediaToolPaths} builds the tools with. */
export interface MediaToolPathOptions {
  /** Passed to `createMediaTools` beside the workspace and models. */
  tools?: Record<string, unknown>;
  /** The models the stand-ins pose as. Default: models no profile names, given the whole context. */
  models?: PosedModels;
  /**
   * The speech stand-in ignores instructions, as some speech models do: the context sent there
   * never reaches it, and it warns so (`unsupported` feature `instructions`).
   */
  speechIgnoresInstructions?: boolean;
  /** The view of CONTEXT.md every tool sends (`context: { view }`): judged by its sections. */
  view?: ContextView;
}

/** The 1×1 PNG the recording image model answers with, and the image the understand tools read. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The smallest files the media tools recognise by their first bytes, per kind. */
const padded = (head: number[]) => Uint8Array.from([...head, ...new Array(64).fill(0)]);
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));
const MEDIA = {
  "probe.png": PNG,
  /** An MPEG-1 Layer III frame header. */
  "probe.mp3": padded([0xff, 0xfb, 0x90, 0x64]),
  "probe.mp4": padded([0, 0, 0, 0x20, ...ascii("ftypisom"), 0, 0, 2, 0, ...ascii("isomiso2mp41")]),
  "probe.pdf": padded(ascii("%PDF-1.7\n1 0 obj\n")),
} as const;

/** Where the media the understand tools read are written, in the canary workspace. */
const MEDIA_FOLDER = "task-context-probe-media";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const response = () => ({ timestamp: new Date(0), modelId: "recording", headers: {} });

/** The text of every text part of a language model prompt, in order. */
export function promptText(prompt: ReadonlyArray<{ content: unknown }>): string {
  return prompt
    .flatMap((message) =>
      typeof message.content === "string"
        ? [message.content]
        : (message.content as Array<{ type: string; text?: string }>)
            .filter((part) => part.type === "text")
            .map((part) => part.text ?? ""),
    )
    .join("\n");
}

/** A language model that keeps the text of every prompt it is given in `received`, and answers "ok". */
export function recordingLanguageModel(
  test: TestModels,
  received: string[],
  model?: PosedModel,
): InstanceType<TestModels["MockLanguageModelV4"]> {
  return new test.MockLanguageModelV4({
    ...posed(model, "language"),
    doGenerate: async (call) => {
      received.push(promptText(call.prompt));
      return {
        content: [{ type: "text", text: "ok" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
  });
}

/** A stand-in's provider and model id: the one it poses as, or one no profile names. */
const posed = (model: PosedModel | undefined, kind: string) => ({
  provider: model?.provider ?? `task-context-probe.${kind}`,
  modelId: model?.modelId ?? "recording",
});

/**
 * Recording stand-ins of every kind the media tools call: each keeps the text the external model
 * would receive (the prompt, the transcription `prompt` option, the speech `instructions`).
 */
function recordingModels(test: TestModels, { models = {}, ...options }: MediaToolPathOptions) {
  const received: string[] = [];
  const understanding = recordingLanguageModel(test, received, models.understanding);
  const image = new test.MockImageModelV4({
    ...posed(models.image, "image"),
    doGenerate: async (call) => {
      received.push(call.prompt ?? "");
      return { images: [Uint8Array.from(PNG)], warnings: [], response: response() };
    },
  });
  const video = new test.MockVideoModelV4({
    ...posed(models.video, "video"),
    doGenerate: async (call) => {
      received.push(call.prompt ?? "");
      return {
        videos: [{ type: "binary", data: MEDIA["probe.mp4"], mediaType: "video/mp4" }],
        warnings: [],
        response: response(),
      };
    },
  });
  const speech = new test.MockSpeechModelV4({
    ...posed(models.speech, "speech"),
    doGenerate: async (call) => {
      if (options.speechIgnoresInstructions === true) {
        return {
          audio: MEDIA["probe.mp3"],
          warnings: [{ type: "unsupported", feature: "instructions" }],
          response: response(),
        };
      }
      received.push(call.instructions ?? "");
      return { audio: MEDIA["probe.mp3"], warnings: [], response: response() };
    },
  });
  const transcriptionModel = posed(models.transcription, "transcription");
  const transcription = new test.MockTranscriptionModelV4({
    ...transcriptionModel,
    doGenerate: async (call) => {
      const key = transcriptionModel.provider.split(".")[0] ?? "";
      const prompt = call.providerOptions?.[key]?.prompt;
      received.push(typeof prompt === "string" ? prompt : "");
      return {
        text: "ok",
        segments: [],
        language: "en",
        durationInSeconds: 1,
        warnings: [],
        response: response(),
      };
    },
  });
  return { received, models: { understanding, image, video, speech, transcription } };
}

/** One media tool row: the tool, its input, and the models it is given. */
interface MediaToolCall {
  name: string;
  tool: keyof MediaTools;
  input: Record<string, unknown>;
  /** Without a transcription model: understand_audio then asks the understanding model. */
  withoutTranscription?: boolean;
}

const media = (file: keyof typeof MEDIA) => `${MEDIA_FOLDER}/${file}`;

/** Every media tool that takes a prompt, and understand_audio in both its modes. */
const CALLS: readonly MediaToolCall[] = [
  { name: "understand_image", tool: "understand_image", input: { path: media("probe.png") } },
  {
    name: "understand_audio (transcription)",
    tool: "understand_audio",
    input: { path: media("probe.mp3") },
  },
  {
    name: "understand_audio (understanding)",
    tool: "understand_audio",
    input: { path: media("probe.mp3") },
    withoutTranscription: true,
  },
  { name: "understand_video", tool: "understand_video", input: { path: media("probe.mp4") } },
  { name: "understand_file", tool: "understand_file", input: { path: media("probe.pdf") } },
  { name: "read_media", tool: "read_media", input: { path: media("probe.png") } },
  { name: "generate_media", tool: "generate_media", input: { type: "image" } },
  { name: "generate_image", tool: "generate_image", input: {} },
  { name: "generate_video", tool: "generate_video", input: {} },
  { name: "generate_audio", tool: "generate_audio", input: { text: "Probe." } },
];

/** The names of the media tool paths, in the report's order. */
export const MEDIA_TOOL_PATHS = CALLS.map((call) => `media tool ${call.name}`);

/** What a media tool's result says of the delivery: its receipt, its view, whether it cut. */
function deliveryOf(
  text: string,
  result: Record<string, unknown>,
  definition: ContextView | undefined,
): ProbeDelivery {
  const delivery: ProbeDelivery = { text };
  if (definition !== undefined) delivery.viewDefinition = definition;
  if (typeof result.warning === "string") delivery.warning = result.warning;
  if (typeof result.contextSha256 === "string") delivery.receipt = result.contextSha256;
  const view = (result.contextView as { name?: string } | undefined)?.name;
  if (view !== undefined) delivery.view = view;
  // Fitted to a model profile, or cut at the load's limit: the delivery says so.
  if (
    result.contextFit !== undefined ||
    (typeof result.warning === "string" && /was truncated/.test(result.warning))
  ) {
    delivery.truncated = true;
  }
  return delivery;
}

/**
 * One path per media tool that takes a prompt, each calling its tool of `createMediaTools` with
 * recording stand-ins of every model kind; the media the understand tools read are written into
 * the canary workspace first.
 */
export function mediaToolPaths(
  tools: typeof createMediaTools,
  test: TestModels,
  options: MediaToolPathOptions = {},
): ProbePath[] {
  return CALLS.map((call) => ({
    name: `media tool ${call.name}`,
    async send({ directory }) {
      const folder = join(directory, MEDIA_FOLDER);
      await mkdir(folder, { recursive: true });
      for (const [file, bytes] of Object.entries(MEDIA)) await writeFile(join(folder, file), bytes);
      const { received, models } = recordingModels(test, options);
      const { transcription, ...others } = models;
      const created = tools({
        workspace: nodeWorkspace(directory),
        models: (call.withoutTranscription === true ? others : models) as never,
        ...(options.view === undefined ? {} : { context: { view: options.view } }),
        ...options.tools,
      } as Parameters<typeof createMediaTools>[0]);
      const execute = created[call.tool].execute as (
        input: unknown,
        context: unknown,
      ) => Promise<Record<string, unknown>>;
      const result = await execute(
        { prompt: PROBE_REQUEST, ...call.input },
        { toolCallId: "probe", messages: [] },
      );
      if (result.success !== true) throw new Error(`${call.tool}: ${String(result.error)}`);
      return deliveryOf(received.join("\n"), result, options.view);
    },
  }));
}
