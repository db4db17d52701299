import { generateText, type TranscriptionModel, transcribe } from "ai";
import { callProvider, describeWarnings } from "./call-provider.ts";
import type { MediaKind } from "./detect-media-type.ts";
import { ModelNotConfiguredError } from "./errors/model-not-configured-error.ts";
import { injectForModel } from "./inject-for-model.ts";
import type { UnderstandInput } from "./input-schemas.ts";
import { type MediaFile, type ProbedMedia, readMedia } from "./media-file.ts";
import { callSettings, type MediaCall, type MediaRuntime } from "./media-runtime.ts";
import type { ProviderOptions } from "./media-tools-options.ts";

/** The understand tools, by the kind of file each takes. */
export const UNDERSTAND_TOOLS = {
  image: "understand_image",
  audio: "understand_audio",
  video: "understand_video",
  file: "understand_file",
} as const satisfies Record<MediaKind, string>;

/** The name of one understand tool. */
export type UnderstandToolName = (typeof UNDERSTAND_TOOLS)[MediaKind];

/** One timed piece of a transcript. */
export interface TranscriptSegment {
  text: string;
  startSecond: number;
  endSecond: number;
}

/** What an understand tool (and `read_media`) returns on success, besides `success: true`. */
export interface UnderstandOutput {
  /** The tool that ran (for `read_media`: the one it picked from the file's content). */
  tool: UnderstandToolName;
  path: string;
  /** The media type detected from the file's content. */
  mediaType: string;
  /** Size in bytes. */
  size: number;
  /** The model's answer; for audio through a transcription model, the transcript. */
  text: string;
  /** Transcription only: the detected language, when the provider reports it. */
  language?: string;
  /** Transcription only: the audio's length, when the provider reports it. */
  durationInSeconds?: number;
  /** Transcription only: timed segments of the transcript. */
  segments?: TranscriptSegment[];
  /** Provider warnings, and the truncation warning when CONTEXT.md was cut. */
  warning?: string;
}

function lastSegment(path: string): string {
  return path.split("/").filter(Boolean).pop() ?? path;
}

function withWarning<T extends object>(output: T, warning: string | undefined): T {
  return warning === undefined ? output : { ...output, warning };
}

/** The provider-options key of a model: `"openai"` for `"openai.transcription"` or `"openai/whisper-1"`. */
function providerKey(model: TranscriptionModel): string {
  const name = typeof model === "string" ? model.split("/")[0] : model.provider.split(".")[0];
  return name === undefined || name === "" ? "gateway" : name;
}

/**
 * The transcription call's provider options with the injected prompt added as that provider's
 * `prompt` option, the field OpenAI-style transcription APIs use to guide spelling and style.
 */
function withTranscriptionPrompt(
  model: TranscriptionModel,
  prompt: string,
  base: ProviderOptions | undefined,
): ProviderOptions {
  const key = providerKey(model);
  return { ...base, [key]: { ...base?.[key], prompt } };
}

async function askLanguageModel(
  runtime: MediaRuntime,
  call: MediaCall,
  tool: UnderstandToolName,
  file: MediaFile,
  prompt: string,
): Promise<UnderstandOutput> {
  const model = runtime.models.understanding;
  if (model === undefined) throw new ModelNotConfiguredError({ tool, model: "understanding" });
  const text = await injectForModel(runtime, call, model, prompt);
  const result = await callProvider(tool, call.signal, () =>
    generateText({
      model,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text },
            {
              type: "file",
              data: file.bytes,
              mediaType: file.mediaType,
              filename: lastSegment(file.path),
            },
          ],
        },
      ],
      ...callSettings(runtime, call, "understanding"),
    }),
  );
  return withWarning(
    { tool, path: file.path, mediaType: file.mediaType, size: file.size, text: result.text },
    describeWarnings(result.warnings),
  );
}

async function transcribeAudio(
  runtime: MediaRuntime,
  call: MediaCall,
  model: TranscriptionModel,
  file: MediaFile,
  prompt: string,
): Promise<UnderstandOutput> {
  const tool = UNDERSTAND_TOOLS.audio;
  const settings = callSettings(runtime, call, "transcription");
  const injected = await injectForModel(runtime, call, model, prompt);
  const result = await callProvider(tool, call.signal, () =>
    transcribe({
      model,
      audio: file.bytes,
      ...settings,
      providerOptions: withTranscriptionPrompt(model, injected, settings.providerOptions),
    }),
  );
  const output: UnderstandOutput = {
    tool,
    path: file.path,
    mediaType: file.mediaType,
    size: file.size,
    text: result.text,
    segments: result.segments.map(({ text, startSecond, endSecond }) => ({
      text,
      startSecond,
      endSecond,
    })),
  };
  if (result.language !== undefined) output.language = result.language;
  if (result.durationInSeconds !== undefined) output.durationInSeconds = result.durationInSeconds;
  return withWarning(output, describeWarnings(result.warnings));
}

/** Checks that the model a kind needs is configured, before the file is read in full. */
function requireUnderstandingModel(runtime: MediaRuntime, kind: MediaKind): void {
  const tool = UNDERSTAND_TOOLS[kind];
  if (kind === "audio") {
    if (runtime.models.transcription === undefined && runtime.models.understanding === undefined)
      throw new ModelNotConfiguredError({
        tool,
        model: "transcription",
        alternative: "understanding",
      });
    return;
  }
  if (runtime.models.understanding === undefined)
    throw new ModelNotConfiguredError({ tool, model: "understanding" });
}

/**
 * Runs the understand tool for a probed file: reads it in full (bounded by its kind's limit) and
 * asks the understanding model, or, for audio with a transcription model configured, transcribes
 * it. The task context reaches the model as `[Task Context]\n…\n\n[Request]\n{prompt}`: the text
 * part beside the file, or the transcription prompt.
 */
export async function understandProbedMedia(
  runtime: MediaRuntime,
  call: MediaCall,
  probed: ProbedMedia,
  input: UnderstandInput,
): Promise<UnderstandOutput> {
  const tool = UNDERSTAND_TOOLS[probed.kind];
  requireUnderstandingModel(runtime, probed.kind);
  const file = await readMedia(
    runtime.workspace,
    probed,
    tool,
    [probed.kind],
    runtime.limits[probed.kind],
  );
  const transcription = runtime.models.transcription;
  if (file.kind === "audio" && transcription !== undefined)
    return transcribeAudio(runtime, call, transcription, file, input.prompt);
  return askLanguageModel(runtime, call, tool, file, input.prompt);
}
