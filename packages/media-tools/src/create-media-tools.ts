import {
  ArgumentError,
  type ContextView,
  type CoreErrorCode,
  defineContextTool,
  TaskContextError,
  type TaskContextView,
  type ToolContext,
} from "@task-context/core";
import { contextViewAttributes, describeArgument } from "@task-context/core/internal";
import type { DeliverySpan } from "@task-context/core/tracing";
import type { Tool, ToolExecutionOptions } from "ai";
import type { z } from "zod";
import { withDeadline } from "./call-deadline.ts";
import type { MediaKind } from "./detect-media-type.ts";
import type { MediaToolErrorCode } from "./errors/media-tool-error.ts";
import type { ContextFit } from "./fit-context-to-profile.ts";
import {
  GENERATE_TOOLS,
  type GenerateOutput,
  generateAudioFile,
  generateImageFile,
  generateVideoFile,
} from "./generate-media.ts";
import { withContextFit } from "./inject-for-model.ts";
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
import type { MediaCall, MediaRuntime } from "./media-runtime.ts";
import type {
  CreateMediaToolsOptions,
  MediaToolName,
  UnderlyingToolName,
} from "./media-tools-options.ts";
import { parseToolInput } from "./parse-tool-input.ts";
import { withReceipt } from "./receipt.ts";
import { recordContextFit } from "./record-context-fit.ts";
import { resolveMediaRuntime } from "./resolve-options.ts";
import { traceMediaTool } from "./trace-media-tool.ts";
import {
  UNDERSTAND_TOOLS,
  type UnderstandOutput,
  understandProbedMedia,
} from "./understand-media.ts";

/**
 * A media tool's result: its output with `success: true` and `contextSha256` (and `warning` when
 * CONTEXT.md was truncated, changed during the call, or the provider reported something), or
 * `{ success: false, error, code }`. The tools never throw.
 */
export type MediaToolResult<Output extends object> =
  | ({
      success: true;
      warning?: string;
      /**
       * The receipt: the hex SHA-256 of the task context sent with the request (the
       * `TaskContext.sha256` that `loadTaskContext` reports for it).
       */
      contextSha256: string;
      /**
       * The view of CONTEXT.md the request carried, when the tool has one (`views`): its name, the
       * headings delivered and `fileSha256`, the whole file's hash; `contextSha256` is the view's.
       */
      contextView?: TaskContextView;
      /**
       * Present when the context was fitted to the target model's prompt limit (its profile):
       * the profile, the limit, the sections kept and left out. `contextSha256` is then the hash
       * of the context actually sent, and `warning` says what was cut.
       */
      contextFit?: ContextFit;
    } & Output)
  | {
      success: false;
      /** What went wrong and what to do next; for the agent to read. */
      error: string;
      /** Core's codes (`TASK_CONTEXT_MISSING`, `INVALID_ARGUMENT`, …) or the media tools' own. */
      code: MediaToolErrorCode | CoreErrorCode | "TOOL_EXECUTION_FAILED";
    };

/**
 * One media tool: an AI SDK tool whose `execute` is always there, so it can also be called
 * directly (`await tools.read_media.execute(input)`), and always resolves to a
 * {@link MediaToolResult}.
 */
type MediaTool<Input, Output extends object> = ToolDefinition<Input, Output> &
  Tool<Input, MediaToolResult<Output>>;

/** What {@link createMediaTools} builds for each tool: an AI SDK function tool. */
interface ToolDefinition<Input, Output extends object> {
  description: string;
  inputSchema: z.ZodType<Input>;
  execute(
    input: Input,
    options?: Partial<ToolExecutionOptions<unknown>>,
  ): Promise<MediaToolResult<Output>>;
}

/**
 * The tools {@link createMediaTools} returns, by the names the model calls them. A type rather
 * than an interface so that the whole set can be passed as `tools` to `generateText`.
 */
export type MediaTools = {
  /** Understands any supported file: picks the understand tool from the file's content. */
  read_media: MediaTool<UnderstandInput, UnderstandOutput>;
  /** Generates an image, a video or speech, as its `type` says. */
  generate_media: MediaTool<GenerateMediaInput, GenerateOutput>;
  /** Answers a question about an image with the `understanding` model. */
  understand_image: MediaTool<UnderstandInput, UnderstandOutput>;
  /** Transcribes audio (`transcription` model), or asks the `understanding` model about it. */
  understand_audio: MediaTool<UnderstandInput, UnderstandOutput>;
  /** Answers a question about a video with the `understanding` model. */
  understand_video: MediaTool<UnderstandInput, UnderstandOutput>;
  /** Answers a question about a PDF or a text file with the `understanding` model. */
  understand_file: MediaTool<UnderstandInput, UnderstandOutput>;
  /** Generates an image with the `image` model and writes it to the workspace. */
  generate_image: MediaTool<GenerateImageInput, GenerateOutput>;
  /** Generates a video with the `video` model and writes it to the workspace. */
  generate_video: MediaTool<GenerateVideoInput, GenerateOutput>;
  /** Speaks a text with the `speech` model and writes the audio to the workspace. */
  generate_audio: MediaTool<GenerateAudioInput, GenerateOutput>;
};

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

/** The caller's abort signal from a tool call's options, checked: direct callers pass anything. */
function abortSignalOf(options: unknown): AbortSignal | undefined {
  if (options === undefined || options === null) return undefined;
  const { abortSignal } = options as { abortSignal?: unknown };
  if (abortSignal === undefined) return undefined;
  const signal = abortSignal as Partial<AbortSignal> | null;
  if (typeof signal?.aborted === "boolean" && typeof signal.addEventListener === "function")
    return abortSignal as AbortSignal;
  throw new ArgumentError({
    argument: "abortSignal",
    message: `expected an AbortSignal, got ${describeArgument(abortSignal)}.`,
  });
}

/**
 * What a media tool hands core's context tool for one call: the checked input, the caller's
 * signal, the delivery span and the view of CONTEXT.md the call delivers.
 */
interface Envelope<Input> {
  input: Input;
  signal: AbortSignal | undefined;
  span: DeliverySpan;
  view: ContextView | undefined;
}

/** Runs one tool call with the loaded context, under the caller's abort signal. */
type Run<Input, Output> = (
  input: Input,
  context: ToolContext,
  signal: AbortSignal | undefined,
  span: DeliverySpan,
) => Promise<Output>;

/**
 * Creates the multimodal tools as AI SDK tools: `read_media` and `generate_media`, the dispatchers
 * an agent calls, and the seven tools underneath them. Every call loads CONTEXT.md from the
 * workspace (it may have been written during the run) and sends the external model
 * `[Task Context]\n{context}\n\n[Request]\n{prompt}`; the model calling the tool never sees the
 * context in the tools' input schemas.
 *
 * Results are `{ success: true, ...output, warning? }` (`warning` when CONTEXT.md was truncated or
 * the provider reported something) or `{ success: false, error, code }` — without CONTEXT.md,
 * `code: "TASK_CONTEXT_MISSING"` with the guiding message and no external call. Tools never throw
 * at the agent. Invalid options throw core's `ArgumentError` (`code: "INVALID_ARGUMENT"`) here.
 * See https://github.com/task-context/task-context/blob/main/docs/media-tools.md.
 *
 * @example
 * ```ts source="../examples/agent.ts#createMediaTools"
 * const { read_media, generate_media } = createMediaTools({
 *   workspace: nodeWorkspace("."),
 *   models: {
 *     understanding: openai("gpt-5-mini"), // images, video, PDFs, text (and audio without `transcription`)
 *     image: openai.image("gpt-image-1"),
 *     speech: openai.speech("gpt-4o-mini-tts"),
 *     transcription: openai.transcription("gpt-4o-transcribe"),
 *     // video: any provider's video model, e.g. google.video("veo-3.1-generate-001") from @ai-sdk/google
 *   },
 * });
 *
 * const result = await generateText({
 *   model: openai("gpt-5"),
 *   tools: { read_media, generate_media },
 *   stopWhen: stepCountIs(10),
 *   prompt: "Check screens/home.png against the brand rules, then draw a better hero image.",
 * });
 * ```
 */
export function createMediaTools(options: CreateMediaToolsOptions): MediaTools {
  const runtime: MediaRuntime = resolveMediaRuntime(options);

  /**
   * Runs `run` under the time limit of the underlying tool `name` and the caller's signal; the
   * output carries the fit of the context to the model's profile, when the call made one, and the
   * delivery span then records the context as sent.
   */
  const withTimeout = async <Output extends { warning?: string }>(
    name: UnderlyingToolName,
    context: ToolContext,
    signal: AbortSignal | undefined,
    span: DeliverySpan,
    run: (call: MediaCall) => Promise<Output>,
  ) => {
    let call: MediaCall | undefined;
    const output = await withDeadline(name, runtime.timeouts[name], signal, (deadline) => {
      call = { context, signal: deadline };
      return run(call);
    });
    recordContextFit(span, call?.fitted, runtime.context.tokenizer);
    return withContextFit(output, call);
  };

  const understandViews = Object.values(UNDERSTAND_TOOLS).some(
    (tool) => runtime.views[tool] !== undefined,
  );

  /**
   * The view a call of `name` delivers: the tool's own, else, for a dispatcher, that of the tool it
   * picks — by `type`, or by the file's kind (read from its first bytes; a file that cannot be
   * read gets no view here, and the call reports the problem as it would without views).
   */
  async function viewOf(name: MediaToolName, input: unknown): Promise<ContextView | undefined> {
    const own = runtime.views[name];
    if (own !== undefined) return own;
    if (name === "generate_media")
      return runtime.views[GENERATE_TOOLS[(input as GenerateMediaInput).type]];
    if (name !== "read_media" || !understandViews) return undefined;
    const probed = await probeMedia(
      runtime.workspace,
      (input as UnderstandInput).path,
      name,
      ALL_KINDS,
    ).catch(() => undefined);
    return probed === undefined ? undefined : runtime.views[UNDERSTAND_TOOLS[probed.kind]];
  }

  /**
   * An AI SDK tool whose every call checks its input, then goes through core's defineContextTool,
   * which loads CONTEXT.md and turns typed errors into results.
   */
  function contextTool<Input, Output extends object>(
    name: MediaToolName,
    inputSchema: z.ZodType<Input>,
    run: Run<Input, Output>,
  ): ToolDefinition<Input, Output> {
    const description = DESCRIPTIONS[name];
    // The context tool's input is an envelope that also carries the caller's abort signal; the
    // model sees only `inputSchema`.
    const contextual = defineContextTool({
      name,
      description,
      parameters: inputSchema,
      workspace: runtime.workspace,
      load: runtime.context,
      execute: async ({ input, signal, span, view }: Envelope<Input>, context: ToolContext) => {
        span.recordContext(context.loaded, runtime.context.tokenizer);
        span.setAttributes(contextViewAttributes(context.loaded));
        const output = await run(input, context, signal, span);
        return withReceipt(runtime, name, context.loaded, output, view);
      },
    });
    const execute = (
      input: Input,
      callOptions?: Partial<ToolExecutionOptions<unknown>>,
    ): Promise<MediaToolResult<Output>> =>
      traceMediaTool(name, callOptions, (span) => checkAndRun(input, callOptions, span));
    async function checkAndRun(
      input: Input,
      callOptions: Partial<ToolExecutionOptions<unknown>> | undefined,
      span: DeliverySpan,
    ): Promise<MediaToolResult<Output>> {
      let envelope: Envelope<Input>;
      try {
        const parsed = parseToolInput(inputSchema, input);
        envelope = { input: parsed, signal: abortSignalOf(callOptions), span, view: undefined };
      } catch (error) {
        // An input whose properties throw when read (a getter, a proxy) is bad input too.
        const failure = TaskContextError.isInstance(error)
          ? error
          : new ArgumentError({
              argument: "input",
              message: "expected plain data, got a value that throws when it is read.",
            });
        return { success: false, error: failure.message, code: "INVALID_ARGUMENT" };
      }
      envelope.view = (await viewOf(name, envelope.input)) ?? runtime.context.view;
      return (await contextual.execute(
        envelope,
        envelope.view === undefined ? {} : { view: envelope.view },
      )) as MediaToolResult<Output>;
    }
    return { description, inputSchema, execute };
  }

  const understand = (name: MediaToolName, kinds: readonly MediaKind[]) =>
    contextTool<UnderstandInput, UnderstandOutput>(
      name,
      understandInputSchema,
      async (input, context, signal, span) => {
        // The file's kind picks the tool, and so the time limit.
        const probed = await probeMedia(runtime.workspace, input.path, name, kinds);
        return withTimeout(UNDERSTAND_TOOLS[probed.kind], context, signal, span, (call) =>
          understandProbedMedia(runtime, call, probed, input),
        );
      },
    );

  const generate = <Input>(
    name: UnderlyingToolName,
    inputSchema: z.ZodType<Input>,
    make: (runtime: MediaRuntime, call: MediaCall, input: Input) => Promise<GenerateOutput>,
  ) =>
    contextTool<Input, GenerateOutput>(name, inputSchema, (input, context, signal, span) =>
      withTimeout(name, context, signal, span, (call) => make(runtime, call, input)),
    );

  return {
    read_media: understand("read_media", ALL_KINDS),
    generate_media: contextTool<GenerateMediaInput, GenerateOutput>(
      "generate_media",
      generateMediaInputSchema,
      (input, context, signal, span) =>
        withTimeout(GENERATE_TOOLS[input.type], context, signal, span, (call) => {
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
        }),
    ),
    understand_image: understand(UNDERSTAND_TOOLS.image, ["image"]),
    understand_audio: understand(UNDERSTAND_TOOLS.audio, ["audio"]),
    understand_video: understand(UNDERSTAND_TOOLS.video, ["video"]),
    understand_file: understand(UNDERSTAND_TOOLS.file, ["file"]),
    generate_image: generate(GENERATE_TOOLS.image, generateImageInputSchema, generateImageFile),
    generate_video: generate(GENERATE_TOOLS.video, generateVideoInputSchema, generateVideoFile),
    generate_audio: generate(GENERATE_TOOLS.audio, generateAudioInputSchema, generateAudioFile),
  };
}
