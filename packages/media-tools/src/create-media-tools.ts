import {
  ArgumentError,
  type ContextToolResult,
  defineContextTool,
  type ToolContext,
} from "@task-context/core";
import { parseWorkspacePath } from "@task-context/core/internal";
import { type Tool, tool } from "ai";
import type { z } from "zod";
import { withDeadline } from "./call-deadline.ts";
import type { MediaKind } from "./detect-media-type.ts";
import {
  GENERATE_TOOLS,
  type GenerateOutput,
  generateAudioFile,
  generateImageFile,
  generateVideoFile,
} from "./generate-media.ts";
import {
  type GenerateAudioInput,
  type GenerateImageInput,
  type GenerateMediaInput,
  type GenerateVideoInput,
  generateAudioInputSchema,
  generateImageInputSchema,
  generateMediaInputSchema,
  generateVideoInputSchema,
  type UnderstandInput,
  understandInputSchema,
} from "./input-schemas.ts";
import { probeMedia } from "./media-file.ts";
import type { MediaRuntime } from "./media-runtime.ts";
import {
  type CreateMediaToolsOptions,
  DEFAULT_MEDIA_LIMITS,
  DEFAULT_TIMEOUTS_MS,
  type MediaToolName,
  type UnderlyingToolName,
} from "./media-tools-options.ts";
import {
  UNDERSTAND_TOOLS,
  type UnderstandOutput,
  understandProbedMedia,
} from "./understand-media.ts";

/** A media tool's result: its output with `success: true`, or `{ success: false, error, code }`. */
export type MediaToolResult<Output extends object> = ContextToolResult<Output>;

/** An AI SDK tool that understands a workspace file. */
export type UnderstandTool = Tool<UnderstandInput, MediaToolResult<UnderstandOutput>>;

/** The tools {@link createMediaTools} returns, by the names the model calls them. */
export interface MediaTools {
  /** Understands any supported file: picks the understand tool from the file's content. */
  read_media: UnderstandTool;
  /** Generates an image, a video or speech, as its `type` says. */
  generate_media: Tool<GenerateMediaInput, MediaToolResult<GenerateOutput>>;
  understand_image: UnderstandTool;
  understand_audio: UnderstandTool;
  understand_video: UnderstandTool;
  understand_file: UnderstandTool;
  generate_image: Tool<GenerateImageInput, MediaToolResult<GenerateOutput>>;
  generate_video: Tool<GenerateVideoInput, MediaToolResult<GenerateOutput>>;
  generate_audio: Tool<GenerateAudioInput, MediaToolResult<GenerateOutput>>;
}

const ALL_KINDS: readonly MediaKind[] = ["image", "audio", "video", "file"];

const CONTEXT_NOTE =
  "The task context from CONTEXT.md is added to the request for you; create CONTEXT.md at the workspace root first.";

const DESCRIPTIONS: Record<MediaToolName, string> = {
  read_media: `Understand a file in the workspace — an image, audio, a video, a PDF or a text file — by asking a model about it. The file's type is detected from its content and the matching understand tool runs. ${CONTEXT_NOTE}`,
  generate_media: `Generate an image, a video or speech audio ("type") from a prompt and save it in the workspace; returns the file's path. ${CONTEXT_NOTE}`,
  understand_image: `Answer a question about an image in the workspace (PNG, JPEG, GIF, WebP, …) with a vision model. ${CONTEXT_NOTE}`,
  understand_audio: `Transcribe, or answer a question about, an audio file in the workspace (MP3, WAV, FLAC, OGG, M4A, …). ${CONTEXT_NOTE}`,
  understand_video: `Answer a question about a video in the workspace (MP4, MOV, WebM, …). ${CONTEXT_NOTE}`,
  understand_file: `Answer a question about a document in the workspace: a PDF or a UTF-8 text file. ${CONTEXT_NOTE}`,
  generate_image: `Generate an image from a prompt and save it in the workspace; returns its path. ${CONTEXT_NOTE}`,
  generate_video: `Generate a video from a prompt and save it in the workspace; returns its path. ${CONTEXT_NOTE}`,
  generate_audio: `Speak a text aloud (text to speech) and save the audio in the workspace; returns its path. ${CONTEXT_NOTE}`,
};

function positiveWhole(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new ArgumentError({
      argument: name,
      message: `expected a whole number ≥ 1, got ${String(value)}.`,
    });
  return value;
}

function resolveTimeouts(
  timeoutMs: CreateMediaToolsOptions["timeoutMs"],
): Record<UnderlyingToolName, number> {
  const timeouts = { ...DEFAULT_TIMEOUTS_MS };
  for (const name of Object.keys(timeouts) as UnderlyingToolName[]) {
    const value = typeof timeoutMs === "number" ? timeoutMs : timeoutMs?.[name];
    if (value !== undefined) timeouts[name] = positiveWhole(`timeoutMs.${name}`, value);
  }
  return timeouts;
}

/**
 * Creates the multimodal tools of spec 000 as AI SDK tools: `read_media` and `generate_media`,
 * the dispatchers an agent calls, and the seven tools underneath them. Every call loads
 * CONTEXT.md from the workspace (it may have been written during the run) and sends the external
 * model `[Task Context]\n{context}\n\n[Request]\n{prompt}`; the model calling the tool never sees
 * the context in the tools' input schemas.
 *
 * Results are `{ success: true, ...output, warning? }` (`warning` when CONTEXT.md was truncated or
 * the provider reported something) or `{ success: false, error, code }` — without CONTEXT.md,
 * `code: "TASK_CONTEXT_MISSING"` with the spec's guiding message and no external call. Tools never
 * throw at the agent.
 *
 * @example
 * ```ts
 * import { openai } from "@ai-sdk/openai";
 * import { nodeWorkspace } from "@task-context/core/node";
 * import { createMediaTools } from "@task-context/media-tools";
 * import { generateText, stepCountIs } from "ai";
 *
 * const { read_media, generate_media } = createMediaTools({
 *   workspace: nodeWorkspace("/srv/agents/run-42"),
 *   models: {
 *     understanding: openai("gpt-5-mini"),
 *     image: openai.image("gpt-image-1"),
 *     speech: openai.speech("gpt-4o-mini-tts"),
 *     transcription: openai.transcription("gpt-4o-transcribe"),
 *   },
 * });
 * const result = await generateText({
 *   model: openai("gpt-5"),
 *   tools: { read_media, generate_media },
 *   stopWhen: stepCountIs(8),
 *   prompt: "Check screenshots/home.png against the brand rules, then draw a better hero image.",
 * });
 * ```
 */
export function createMediaTools(options: CreateMediaToolsOptions): MediaTools {
  const outputDirectory = parseWorkspacePath(options.outputDirectory ?? "generated").join("/");
  const limits = { ...DEFAULT_MEDIA_LIMITS };
  for (const kind of ALL_KINDS) {
    const limit = options.limits?.[kind];
    if (limit !== undefined) limits[kind] = positiveWhole(`limits.${kind}`, limit);
  }
  const timeouts = resolveTimeouts(options.timeoutMs);
  const runtime: MediaRuntime = {
    workspace: options.workspace,
    models: options.models,
    limits,
    maxRetries: options.maxRetries,
    providerOptions: options.providerOptions ?? {},
    outputDirectory,
  };

  /** An AI SDK tool definition whose every call goes through core's defineContextTool. */
  function contextTool<Input, Output extends object>(
    name: MediaToolName,
    inputSchema: z.ZodType<Input>,
    run: (input: Input, context: ToolContext, signal: AbortSignal | undefined) => Promise<Output>,
  ): ToolDefinition<Input, MediaToolResult<Output>> {
    const description = DESCRIPTIONS[name];
    // The context tool's input is an envelope that also carries the caller's abort signal; the
    // model sees only `inputSchema`.
    const contextual = defineContextTool({
      name,
      description,
      parameters: inputSchema,
      workspace: options.workspace,
      ...(options.context === undefined ? {} : { load: options.context }),
      execute: ({ input, signal }: { input: Input; signal: AbortSignal | undefined }, context) =>
        run(input, context, signal),
    });
    return {
      description,
      inputSchema,
      execute: (input, { abortSignal }) => contextual.execute({ input, signal: abortSignal }),
    };
  }

  const understand = (name: MediaToolName, kinds: readonly MediaKind[]) =>
    contextTool<UnderstandInput, UnderstandOutput>(
      name,
      understandInputSchema,
      async (input, context, signal) => {
        const probed = await probeMedia(options.workspace, input.path, name, kinds);
        const picked = UNDERSTAND_TOOLS[probed.kind];
        return withDeadline(picked, timeouts[picked], signal, (deadline) =>
          understandProbedMedia(runtime, { context, signal: deadline }, probed, input),
        );
      },
    );

  const generate = <Input>(
    name: UnderlyingToolName,
    inputSchema: z.ZodType<Input>,
    make: GenerateFunction<Input>,
  ) =>
    contextTool<Input, GenerateOutput>(name, inputSchema, (input, context, signal) =>
      withDeadline(name, timeouts[name], signal, (deadline) =>
        make(runtime, { context, signal: deadline }, input),
      ),
    );

  return {
    read_media: tool(understand("read_media", ALL_KINDS)),
    generate_media: tool(
      contextTool<GenerateMediaInput, GenerateOutput>(
        "generate_media",
        generateMediaInputSchema,
        (input, context, signal) => {
          const name = GENERATE_TOOLS[input.type];
          return withDeadline(name, timeouts[name], signal, (deadline) => {
            const call = { context, signal: deadline };
            switch (input.type) {
              case "image":
                return generateImageFile(runtime, call, input);
              case "video":
                return generateVideoFile(runtime, call, input);
              case "audio":
                return generateAudioFile(
                  runtime,
                  call,
                  input.text === undefined
                    ? { ...input, text: input.prompt, prompt: undefined }
                    : { ...input, text: input.text },
                );
            }
          });
        },
      ),
    ),
    understand_image: tool(understand(UNDERSTAND_TOOLS.image, ["image"])),
    understand_audio: tool(understand(UNDERSTAND_TOOLS.audio, ["audio"])),
    understand_video: tool(understand(UNDERSTAND_TOOLS.video, ["video"])),
    understand_file: tool(understand(UNDERSTAND_TOOLS.file, ["file"])),
    generate_image: tool(
      generate(GENERATE_TOOLS.image, generateImageInputSchema, generateImageFile),
    ),
    generate_video: tool(
      generate(GENERATE_TOOLS.video, generateVideoInputSchema, generateVideoFile),
    ),
    generate_audio: tool(
      generate(GENERATE_TOOLS.audio, generateAudioInputSchema, generateAudioFile),
    ),
  };
}

/** The parts of an AI SDK function tool that {@link createMediaTools} builds. */
interface ToolDefinition<Input, Result> {
  description: string;
  inputSchema: z.ZodType<Input>;
  execute(input: Input, options: { abortSignal?: AbortSignal | undefined }): Promise<Result>;
}

type GenerateFunction<Input> = (
  runtime: MediaRuntime,
  call: { context: ToolContext; signal: AbortSignal },
  input: Input,
) => Promise<GenerateOutput>;
