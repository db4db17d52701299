import {
  experimental_generateVideo,
  type GeneratedFile,
  generateImage,
  generateSpeech,
  type Warning,
} from "ai";
import { callProvider, describeWarnings } from "./call-provider.ts";
import { ModelNotConfiguredError } from "./errors/model-not-configured-error.ts";
import { ProviderError } from "./errors/provider-error.ts";
import { type GeneratedMedia, writeGeneratedMedia } from "./generated-media.ts";
import type {
  GenerateAudioInput,
  GenerateImageInput,
  GenerateVideoInput,
} from "./input-schemas.ts";
import { callSettings, type MediaCall, type MediaRuntime } from "./media-runtime.ts";

/** The generate tools, by the kind of media each makes. */
export const GENERATE_TOOLS = {
  image: "generate_image",
  video: "generate_video",
  audio: "generate_audio",
} as const;

/** What `generate_media` can make. */
export type GeneratedKind = keyof typeof GENERATE_TOOLS;

/** The name of one generate tool. */
export type GenerateToolName = (typeof GENERATE_TOOLS)[GeneratedKind];

/** What a generate tool (and `generate_media`) returns on success, besides `success: true`. */
export interface GenerateOutput extends GeneratedMedia {
  /** The tool that ran (for `generate_media`: the one its `type` picked). */
  tool: GenerateToolName;
  /** Provider warnings, and the truncation warning when CONTEXT.md was cut. */
  warning?: string;
}

/**
 * What `generate_audio` sends as the speech model's instructions when the agent gives no `prompt`:
 * the task context still needs a request to precede.
 *
 * @example
 * ```ts
 * // generate_audio({ text: "Welcome." }) sends instructions:
 * injectTaskContext(DEFAULT_SPEECH_REQUEST, context); // "[Task Context]
…

[Request]
Read the text aloud naturally."
 * ```
 */
export const DEFAULT_SPEECH_REQUEST = "Read the text aloud naturally.";

type Size = `${number}x${number}`;
type AspectRatio = `${number}:${number}`;

function optional<Key extends string, Value>(key: Key, value: Value | undefined) {
  return (value === undefined ? {} : { [key]: value }) as Partial<Record<Key, Value>>;
}

async function save(
  runtime: MediaRuntime,
  call: MediaCall,
  tool: GenerateToolName,
  kind: GeneratedKind,
  file: GeneratedFile,
  warnings: readonly Warning[],
): Promise<GenerateOutput> {
  // A call that timed out or was aborted must leave nothing behind, even when the provider
  // answered after the deadline.
  call.signal.throwIfAborted();
  const written = await writeGeneratedMedia(
    runtime.workspace,
    runtime.outputDirectory,
    kind,
    file.uint8Array,
    file.mediaType,
  );
  const output: GenerateOutput = { tool, ...written };
  const warning = describeWarnings(warnings);
  if (warning !== undefined) output.warning = warning;
  return output;
}

/** `generate_image`: `generateImage` with the context-injected prompt; writes the image. */
export async function generateImageFile(
  runtime: MediaRuntime,
  call: MediaCall,
  input: GenerateImageInput,
): Promise<GenerateOutput> {
  const tool = GENERATE_TOOLS.image;
  const model = runtime.models.image;
  if (model === undefined) throw new ModelNotConfiguredError({ tool, model: "image" });
  const result = await callProvider(tool, call.signal, () =>
    generateImage({
      model,
      prompt: call.context.prependTaskContext(input.prompt),
      n: 1,
      ...optional("size", input.size as Size | undefined),
      ...optional("aspectRatio", input.aspectRatio as AspectRatio | undefined),
      ...optional("seed", input.seed),
      ...callSettings(runtime, call, "image"),
    }),
  );
  return save(runtime, call, tool, "image", result.image, result.warnings);
}

/** `generate_video`: `experimental_generateVideo` with the context-injected prompt; writes the video. */
export async function generateVideoFile(
  runtime: MediaRuntime,
  call: MediaCall,
  input: GenerateVideoInput,
): Promise<GenerateOutput> {
  const tool = GENERATE_TOOLS.video;
  const model = runtime.models.video;
  if (model === undefined) throw new ModelNotConfiguredError({ tool, model: "video" });
  const result = await callProvider(tool, call.signal, () =>
    experimental_generateVideo({
      model,
      prompt: call.context.prependTaskContext(input.prompt),
      n: 1,
      ...optional("aspectRatio", input.aspectRatio as AspectRatio | undefined),
      ...optional("resolution", input.resolution as Size | undefined),
      ...optional("duration", input.duration),
      ...optional("seed", input.seed),
      ...callSettings(runtime, call, "video"),
    }),
  );
  const video = result.videos[0];
  if (video === undefined) {
    throw new ProviderError({
      tool,
      providerMessage:
        "the provider delivered the video to its own upload destination, not as data; nothing could be written to the workspace",
    });
  }
  return save(runtime, call, tool, "video", video, result.warnings);
}

/**
 * `generate_audio`: `generateSpeech` speaks `text`; the task context goes into the
 * speech model's `instructions` (`[Task Context]\n…\n\n[Request]\n{prompt}`), never into the
 * words spoken. Writes the audio.
 */
export async function generateAudioFile(
  runtime: MediaRuntime,
  call: MediaCall,
  input: GenerateAudioInput,
): Promise<GenerateOutput> {
  const tool = GENERATE_TOOLS.audio;
  const model = runtime.models.speech;
  if (model === undefined) throw new ModelNotConfiguredError({ tool, model: "speech" });
  const result = await callProvider(tool, call.signal, () =>
    generateSpeech({
      model,
      text: input.text,
      instructions: call.context.prependTaskContext(input.prompt ?? DEFAULT_SPEECH_REQUEST),
      ...optional("voice", input.voice),
      ...optional("outputFormat", input.format),
      ...optional("speed", input.speed),
      ...optional("language", input.language),
      ...callSettings(runtime, call, "speech"),
    }),
  );
  return save(runtime, call, tool, "audio", result.audio, result.warnings);
}
