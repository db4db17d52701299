import type { ContextView, LoadTaskContextOptions, Workspace } from "@task-context/core";
import type {
  experimental_generateVideo,
  generateImage,
  ImageModel,
  LanguageModel,
  SpeechModel,
  TranscriptionModel,
} from "ai";
import type { MediaKind } from "./detect-media-type.ts";
import type { ModelProfile } from "./model-profile.ts";

/** A video model as `experimental_generateVideo` takes it (a provider's video model or a gateway id). */
export type VideoModel = Parameters<typeof experimental_generateVideo>[0]["model"];

/** Provider-specific options, keyed by provider name, as every AI SDK call takes them. */
export type ProviderOptions = NonNullable<Parameters<typeof generateImage>[0]["providerOptions"]>;

/**
 * The AI SDK models behind the tools, any provider's (or AI Gateway model ids). Each is optional:
 * a tool whose model is missing returns `{ success: false, code: "MODEL_NOT_CONFIGURED" }` and
 * names the option to set.
 */
export interface MediaModels {
  /**
   * A language model that accepts file parts: `understand_image`, `understand_video`,
   * `understand_file`, and `understand_audio` when no `transcription` model is set.
   */
  understanding?: LanguageModel;
  /** `generate_image` (`generateImage`). */
  image?: ImageModel;
  /** `generate_video` (`experimental_generateVideo`). */
  video?: VideoModel;
  /** `generate_audio` (`generateSpeech`): text to speech. */
  speech?: SpeechModel;
  /** `understand_audio` (`transcribe`); takes precedence over `understanding` for audio. */
  transcription?: TranscriptionModel;
}

/**
 * Largest input file per kind, in bytes. Defaults: image 20 MiB, audio 25 MiB, video 100 MiB,
 * file (PDF or text) 50 MiB.
 */
export interface MediaLimits {
  image?: number;
  audio?: number;
  video?: number;
  file?: number;
}

const MiB = 1024 * 1024;

/** The default {@link MediaLimits}. */
export const DEFAULT_MEDIA_LIMITS: Readonly<Record<MediaKind, number>> = Object.freeze({
  image: 20 * MiB,
  audio: 25 * MiB,
  video: 100 * MiB,
  file: 50 * MiB,
});

/** The names of the seven underlying tools. */
export type UnderlyingToolName =
  | "understand_image"
  | "understand_audio"
  | "understand_video"
  | "understand_file"
  | "generate_image"
  | "generate_video"
  | "generate_audio";

/** Every tool {@link createMediaTools} returns: the two dispatchers and the seven underlying tools. */
export type MediaToolName = "read_media" | "generate_media" | UnderlyingToolName;

/**
 * Default time limits per call, in milliseconds: 2 minutes for understanding and speech, 3 for
 * images, 15 for video (providers render video for minutes). A dispatcher uses the limit of the
 * tool it picks.
 */
export const DEFAULT_TIMEOUTS_MS: Readonly<Record<UnderlyingToolName, number>> = Object.freeze({
  understand_image: 120_000,
  understand_audio: 120_000,
  understand_video: 120_000,
  understand_file: 120_000,
  generate_image: 180_000,
  generate_video: 900_000,
  generate_audio: 120_000,
});

/** Options of {@link createMediaTools}. */
export interface CreateMediaToolsOptions {
  /**
   * Where CONTEXT.md is read from on every call, media are read from and generated media written
   * to: `nodeWorkspace(root)` from `@task-context/core/node`, `memoryWorkspace()`, or your own.
   */
  workspace: Workspace;
  /** The AI SDK models behind the tools; any provider's. */
  models: MediaModels;
  /** Largest input file per kind, in bytes (whole numbers ≥ 1). */
  limits?: MediaLimits;
  /**
   * Time limit of one tool call, in milliseconds (a whole number from 1 to 2147483647): one number
   * for every tool, or per underlying tool. Defaults: 2 minutes, images 3 minutes, video 15
   * minutes. A call past it is aborted and returns `{ success: false, code: "TIMEOUT" }`.
   */
  timeoutMs?: number | Partial<Record<UnderlyingToolName, number>>;
  /** Retries of a failed provider call, passed to the AI SDK (a whole number ≥ 0; its default: 2). */
  maxRetries?: number;
  /** Provider options passed to each model's calls, e.g. `{ image: { openai: { quality: "high" } } }`. */
  providerOptions?: Partial<Record<keyof MediaModels, ProviderOptions>>;
  /** The workspace folder generated media are written to (default `"generated"`). */
  outputDirectory?: string;
  /**
   * How CONTEXT.md is bounded (`maxChars`, default 10 000; `maxTokens` with a `tokenizer`); a
   * `view` here applies to every tool that has none in `views`.
   */
  context?: Omit<LoadTaskContextOptions, "required">;
  /**
   * The view of CONTEXT.md each tool delivers, by tool name: e.g. `{ generate_image:
   * CONTEXT_VIEW_PRESETS.media }` sends the image model only what we are building, the key terms
   * and the brand rules. A dispatcher without a view of its own uses the view of the tool it
   * picks (`generate_media` with `type: "image"` that of `generate_image`, `read_media` on an
   * image that of `understand_image`). Tools without a view deliver the whole file (or
   * `context.view`). Results and spans name the view delivered.
   */
  views?: Partial<Record<MediaToolName, ContextView>>;
  /**
   * Profiles of target models, before the built-in ones (`MODEL_PROFILES`): one with the same
   * provider and model id as a built-in replaces it. A model with a profile whose prompt limit the
   * context would exceed gets the context fitted to it, the goal and key terms first, with a
   * `warning` and `contextFit` in the result; a model without one gets the whole context.
   */
  modelProfiles?: readonly ModelProfile[];
}
