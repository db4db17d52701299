import type { ContextView } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import type { createMediaTools, taskContextMiddleware } from "@task-context/media-tools";
import { PROBE_REQUEST } from "./built-in-paths.ts";
import {
  MEDIA_TOOL_PATHS,
  type MediaToolPathOptions,
  mediaToolPaths,
  type PosedModel,
  type PosedModels,
  recordingLanguageModel,
} from "./media-tool-paths.ts";
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
  image?: PosedModel;
  /** The models the recording stand-ins of each kind pose as (`image` is `models.image`). */
  models?: PosedModels;
  /** More options of the media tool paths, e.g. a speech stand-in that ignores instructions. */
  media?: Pick<MediaToolPathOptions, "speechIgnoresInstructions">;
  /** The view of CONTEXT.md the media tools and the middleware send: judged by its sections. */
  view?: ContextView;
}

/** The names of the AI SDK paths, in the report's order. */
export const AI_SDK_PATHS = [...MEDIA_TOOL_PATHS, "AI SDK middleware"];

/**
 * What a model call through `taskContextMiddleware` delivered: `text`, with the receipt and view
 * its `providerMetadata.taskContext` names, judged by `view` when the middleware was given one.
 */
export function middlewareDelivery(
  text: string,
  providerMetadata: Record<string, unknown> | undefined,
  view: ContextView | undefined,
): ProbeDelivery {
  const said = providerMetadata?.taskContext as
    | { contextSha256?: unknown; contextView?: { name?: unknown } }
    | undefined;
  const delivery: ProbeDelivery = { text };
  if (typeof said?.contextSha256 === "string") delivery.receipt = said.contextSha256;
  if (typeof said?.contextView?.name === "string") delivery.view = said.contextView.name;
  if (view !== undefined) delivery.viewDefinition = view;
  return delivery;
}

/**
 * The AI SDK paths: each media tool that takes a prompt through a recording stand-in of its model
 * kind ({@link mediaToolPaths}), and `taskContextMiddleware` around a recording language model. Undefined when
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
  const middlewarePath: ProbePath = {
    name: "AI SDK middleware",
    async send({ directory }) {
      const prompts: string[] = [];
      const model = recordingLanguageModel(test, prompts);
      const wrapped = ai.wrapLanguageModel({
        model,
        middleware: media.taskContextMiddleware({
          workspace: nodeWorkspace(directory),
          ...(options.view === undefined ? {} : { view: options.view }),
          ...options.middleware,
        } as Parameters<typeof taskContextMiddleware>[0]),
      });
      const result = await ai.generateText({ model: wrapped, prompt: PROBE_REQUEST });
      const delivery = middlewareDelivery(
        prompts.join("\n"),
        result.providerMetadata,
        options.view,
      );
      return delivery;
    },
  };
  const models = {
    ...options.models,
    ...(options.image === undefined ? {} : { image: options.image }),
  };
  return [
    ...mediaToolPaths(media.createMediaTools, test, {
      ...options.media,
      ...(options.view === undefined ? {} : { view: options.view }),
      models,
      ...(options.tools === undefined ? {} : { tools: options.tools }),
    }),
    middlewarePath,
  ];
}
