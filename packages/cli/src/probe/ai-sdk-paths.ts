import { nodeWorkspace } from "@task-context/core/node";
import type { createMediaTools, taskContextMiddleware } from "@task-context/media-tools";
import { PROBE_REQUEST } from "./built-in-paths.ts";
import type { ProbeDelivery, ProbePath } from "./probe-paths.ts";

type MediaToolsModule = {
  createMediaTools: typeof createMediaTools;
  taskContextMiddleware: typeof taskContextMiddleware;
};

/** Options for the AI SDK paths: change how the tools or middleware are created (tests break them). */
export interface AiSdkPathOptions {
  /** Passed to `taskContextMiddleware` beside the workspace, e.g. `{ required: false }`. */
  middleware?: Record<string, unknown>;
  /** Passed to `createMediaTools` beside the workspace and models. */
  tools?: Record<string, unknown>;
  /**
   * The model the recording image model poses as, e.g. `{ provider: "openai.image", modelId:
   * "dall-e-2" }`: the tools then fit the context to its profile, as they would for that model.
   * Default: a model no profile names, which gets the whole context.
   */
  image?: { provider: string; modelId: string };
}

/** The 1×1 PNG a recording image model answers with. */
const PNG = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  ),
);

/** The text of every text part of a language model prompt, in order. */
function promptText(prompt: ReadonlyArray<{ content: unknown }>): string {
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

/**
 * The AI SDK paths: `generate_image` of the media tools through a recording image model, and
 * `taskContextMiddleware` around a recording language model. Undefined when
 * `@task-context/media-tools` or `ai` cannot be loaded here (not installed, or Node < 22).
 */
export async function aiSdkPaths(options: AiSdkPathOptions = {}): Promise<ProbePath[] | undefined> {
  let media: MediaToolsModule;
  let ai: typeof import("ai");
  let test: typeof import("ai/test");
  try {
    media = await import("@task-context/media-tools");
    ai = await import("ai");
    test = await import("ai/test");
  } catch {
    return undefined;
  }
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
  const generateImagePath: ProbePath = {
    name: "media tool generate_image",
    async send({ directory }) {
      const prompts: string[] = [];
      const image = new test.MockImageModelV4({
        provider: options.image?.provider ?? "task-context.probe",
        modelId: options.image?.modelId ?? "recording",
        doGenerate: async (call) => {
          prompts.push(typeof call.prompt === "string" ? call.prompt : "");
          return {
            images: [PNG],
            warnings: [],
            response: { timestamp: new Date(0), modelId: "recording", headers: {} },
          };
        },
      });
      const tools = media.createMediaTools({
        workspace: nodeWorkspace(directory),
        models: { image: image as never },
        ...options.tools,
      } as Parameters<typeof createMediaTools>[0]);
      const execute = tools.generate_image.execute as (
        input: unknown,
        context: unknown,
      ) => Promise<Record<string, unknown>>;
      const result = await execute(
        { prompt: PROBE_REQUEST },
        { toolCallId: "probe", messages: [] },
      );
      if (result.success !== true) throw new Error(`generate_image: ${String(result.error)}`);
      const delivery: ProbeDelivery = { text: prompts.join("\n") };
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
    },
  };
  const middlewarePath: ProbePath = {
    name: "AI SDK middleware",
    async send({ directory }) {
      const prompts: string[] = [];
      const model = new test.MockLanguageModelV4({
        doGenerate: async (call) => {
          prompts.push(promptText(call.prompt));
          return {
            content: [{ type: "text", text: "ok" }],
            finishReason: { unified: "stop", raw: "stop" },
            usage,
            warnings: [],
          };
        },
      });
      const wrapped = ai.wrapLanguageModel({
        model,
        middleware: media.taskContextMiddleware({
          workspace: nodeWorkspace(directory),
          ...options.middleware,
        } as Parameters<typeof taskContextMiddleware>[0]),
      });
      const result = await ai.generateText({ model: wrapped, prompt: PROBE_REQUEST });
      const receipt = (
        result.providerMetadata?.taskContext as { contextSha256?: unknown } | undefined
      )?.contextSha256;
      const delivery: ProbeDelivery = { text: prompts.join("\n") };
      if (typeof receipt === "string") delivery.receipt = receipt;
      return delivery;
    },
  };
  return [generateImagePath, middlewarePath];
}
